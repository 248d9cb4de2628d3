"""`signet connect` / `disconnect` on a person's real configuration files: their entries stay
untouched and in order, a second run changes nothing, every write keeps a backup, disconnect removes
only ours (Codex trust entries of the person's hooks move with them), a file that does not parse is
refused and left as it was, --dry-run writes nothing. (tests/cli/test_harness_clis.py runs the real
Claude Code and Codex on what this writes.)"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest

from signet_cli.harness import codex
from signet_cli.main import main

THEIR_SETTINGS = {
    "model": "opus",
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo mine"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}],
    },
}
THEIR_CONFIG = """# my Codex settings
model = "o3"   # the one I like

[mcp_servers.github]
command = "gh-mcp"
args = ["--ro"]

[projects."/work/app"]
trust_level = "trusted"
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "SIGNET_DAEMON_URL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def signet(*argv: str) -> int:
    return main(list(argv))


def backups(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.signet-*.bak"))


def our_commands(settings: dict) -> dict[str, str]:
    return {event: h["command"] for event, groups in settings["hooks"].items() for g in groups for h in g["hooks"]
            if " hook " in h["command"]}


def test_claude_code_connect_merges_after_their_entries_and_a_second_run_changes_nothing(home, capsys):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(THEIR_SETTINGS))
    (home / ".claude.json").write_text(json.dumps({"numStartups": 3, "mcpServers": {"gh": {"command": "gh-mcp"}}}))
    assert signet("connect", "claude-code") == 0
    wired = json.loads(settings.read_text())
    assert wired["model"] == "opus" and wired["permissions"] == THEIR_SETTINGS["permissions"]
    assert wired["hooks"]["SessionStart"][0] == THEIR_SETTINGS["hooks"]["SessionStart"][0]  # theirs first, as it was
    assert wired["hooks"]["Stop"] == THEIR_SETTINGS["hooks"]["Stop"]
    commands = our_commands(wired)
    assert set(commands) == {"SessionStart", "UserPromptSubmit", "PreCompact", "PostCompact", "SessionEnd"}
    assert commands["UserPromptSubmit"].endswith("signet hook user-prompt-submit -H claude-code")
    assert Path(commands["SessionEnd"].split()[0]).is_absolute()  # the harness's PATH may not hold the venv
    servers = json.loads((home / ".claude.json").read_text())
    assert servers["numStartups"] == 3 and servers["mcpServers"]["gh"] == {"command": "gh-mcp"}
    assert servers["mcpServers"]["signet"]["command"].endswith("signet-mcp")
    assert [json.loads(b.read_text()) for b in backups(settings.parent)] == [THEIR_SETTINGS]
    written = (settings.read_text(), (home / ".claude.json").read_text())
    capsys.readouterr()
    assert signet("connect", "claude-code") == 0
    assert "nothing changed" in capsys.readouterr().out
    assert (settings.read_text(), (home / ".claude.json").read_text()) == written
    assert len(backups(settings.parent)) == 1 and len(backups(home)) == 1  # no write, no new backup


def test_claude_code_disconnect_removes_only_ours(home):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(THEIR_SETTINGS))
    assert signet("connect", "claude-code", "--url", "http://127.0.0.1:4000") == 0
    assert "--url http://127.0.0.1:4000" in our_commands(json.loads(settings.read_text()))["SessionStart"]
    assert json.loads((home / ".claude.json").read_text())["mcpServers"]["signet"]["env"] == {
        "SIGNET_DAEMON_URL": "http://127.0.0.1:4000"}
    assert signet("disconnect", "claude-code") == 0
    assert json.loads(settings.read_text()) == THEIR_SETTINGS
    assert "signet" not in json.loads((home / ".claude.json").read_text()).get("mcpServers", {})


def test_the_reference_clis_hooks_are_replaced_not_doubled(home):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [
        {"type": "command", "command": 'signet hook session-start -H claude-code --project "$(pwd)"',
         "timeout": 3000}]}]}}))
    assert signet("connect", "claude-code") == 0
    groups = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert len(groups) == 1 and groups[0]["hooks"][0]["timeout"] == 11


def test_project_scope_writes_the_projects_files(home, tmp_path):
    project = tmp_path / "app"
    project.mkdir()
    assert signet("connect", "claude-code", "--project", str(project)) == 0
    assert our_commands(json.loads((project / ".claude" / "settings.json").read_text()))
    assert "signet" in json.loads((project / ".mcp.json").read_text())["mcpServers"]
    assert not (home / ".claude").exists() and not (home / ".claude.json").exists()
    assert signet("connect", "claude-code", "--project", str(tmp_path / "missing")) == 2


def test_a_file_that_does_not_parse_is_refused_and_left_alone(home, capsys):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": {,}')
    assert signet("connect", "claude-code") == 2
    assert "is not valid JSON" in capsys.readouterr().err and settings.read_text() == '{"hooks": {,}'
    settings.write_text('{"hooks": {"SessionStart": {"hooks": []}}}')
    assert signet("connect", "claude-code") == 2
    assert "not a list" in capsys.readouterr().err
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("model = \n")
    assert signet("connect", "codex") == 2
    assert "not valid TOML" in capsys.readouterr().err and not (home / ".codex" / "hooks.json").exists()


def test_dry_run_prints_the_diff_and_writes_nothing(home, capsys):
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(THEIR_CONFIG)
    assert signet("connect", "codex", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "+[mcp_servers.signet]" in out and "hook session-start -H codex" in out and "dry run: 2 file(s)" in out
    assert (home / ".codex" / "config.toml").read_text() == THEIR_CONFIG
    assert not (home / ".codex" / "hooks.json").exists()


def test_codex_connect_keeps_their_config_as_written_and_trusts_only_our_hooks(home):
    folder = home / ".codex"
    folder.mkdir()
    (folder / "config.toml").write_text(THEIR_CONFIG)
    their_hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}]}}
    (folder / "hooks.json").write_text(json.dumps(their_hooks))
    assert signet("connect", "codex") == 0
    text = (folder / "config.toml").read_text()
    assert text.startswith(THEIR_CONFIG.rstrip("\n"))  # byte for byte, comments included
    config = tomllib.loads(text)
    assert config["mcp_servers"]["github"] == {"command": "gh-mcp", "args": ["--ro"]}
    assert config["mcp_servers"]["signet"]["command"].endswith("signet-mcp")
    hooks = json.loads((folder / "hooks.json").read_text())["hooks"]
    assert hooks["Stop"][0] == their_hooks["hooks"]["Stop"][0] and len(hooks["Stop"]) == 2
    source = str((folder / "hooks.json").resolve())
    states = config["hooks"]["state"]
    assert set(states) == {f"{source}:stop:1:0", f"{source}:session_start:0:0", f"{source}:user_prompt_submit:0:0",
                           f"{source}:pre_compact:0:0", f"{source}:post_compact:0:0"}  # not theirs (stop:0:0)
    ours = hooks["Stop"][1]
    assert states[f"{source}:stop:1:0"] == {"enabled": True, "trusted_hash": codex.trusted_hash("Stop", ours,
                                                                                                 ours["hooks"][0])}
    before = (text, (folder / "hooks.json").read_text())
    assert signet("connect", "codex") == 0
    assert ((folder / "config.toml").read_text(), (folder / "hooks.json").read_text()) == before
    assert signet("disconnect", "codex") == 0
    assert (folder / "config.toml").read_text() == THEIR_CONFIG
    assert json.loads((folder / "hooks.json").read_text()) == their_hooks


def test_codex_disconnect_moves_the_trust_of_their_hooks_that_move_up(home):
    """Ours ahead of theirs in an event: when ours go, theirs move up a place, and so does the
    trust they were given (Codex keys it by position)."""
    folder = home / ".codex"
    folder.mkdir()
    assert signet("connect", "codex") == 0
    hooks_file = folder / "hooks.json"
    wired = json.loads(hooks_file.read_text())
    mine = {"hooks": [{"type": "command", "command": "say hi", "timeout": 5}]}
    wired["hooks"]["UserPromptSubmit"].append(mine)
    hooks_file.write_text(json.dumps(wired))
    source = str(hooks_file.resolve())
    their_trust = f'\n[hooks.state."{source}:user_prompt_submit:1:0"]\nenabled = true\ntrusted_hash = "sha256:theirs"\n'
    with open(folder / "config.toml", "a") as f:
        f.write(their_trust)
    assert signet("disconnect", "codex") == 0
    assert json.loads(hooks_file.read_text())["hooks"] == {"UserPromptSubmit": [mine]}
    states = tomllib.loads((folder / "config.toml").read_text())["hooks"]["state"]
    assert states == {f"{source}:user_prompt_submit:0:0": {"enabled": True, "trusted_hash": "sha256:theirs"}}


def test_an_entry_of_ours_in_a_form_we_do_not_edit_is_refused(home, capsys):
    folder = home / ".codex"
    folder.mkdir()
    odd = 'mcp_servers = { signet = { command = "old-signet-mcp" } }\n'
    (folder / "config.toml").write_text(odd)
    assert signet("connect", "codex") == 2
    assert "remove it, then run again" in capsys.readouterr().err and (folder / "config.toml").read_text() == odd


def test_codex_trust_hash_is_codexs_canonical_form():
    """sha256 over sorted-key compact JSON of the normalized identity (what Codex 0.171 trusts:
    tests/cli/test_harness_clis.py runs it on hooks trusted this way)."""
    grp = {"hooks": [{"type": "command", "command": "echo hi", "timeout": 7}]}
    canonical = ('{"event_name":"user_prompt_submit",'
                 '"hooks":[{"async":false,"command":"echo hi","timeout":7,"type":"command"}]}')
    assert codex.trusted_hash("UserPromptSubmit", grp, grp["hooks"][0]) == \
        "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()
    assert codex.label("PostToolUse") == "post_tool_use"


def test_reconnecting_with_their_hook_after_ours_moves_their_trust_and_keeps_their_toml(home):
    """Their hook after ours moves up a place when ours go to the end again; its trust moves with it
    (a key that is also our new one). Multi-line strings and the comments above a table stay as written."""
    folder = home / ".codex"
    folder.mkdir()
    config = 'instructions = """first\n\n\nlast"""\n'
    (folder / "config.toml").write_text(config)
    assert signet("connect", "codex") == 0
    hooks_file = folder / "hooks.json"
    wired = json.loads(hooks_file.read_text())
    mine = {"hooks": [{"type": "command", "command": "say done", "timeout": 5}]}
    wired["hooks"]["Stop"].append(mine)
    hooks_file.write_text(json.dumps(wired))
    source = str(hooks_file.resolve())
    with open(folder / "config.toml", "a") as f:
        f.write(f'\n# my own trust, kept by hand\n[hooks.state."{source}:stop:1:0"]\nenabled = true\n'
                f'trusted_hash = "sha256:theirs"\n')
    assert signet("connect", "codex") == 0
    text = (folder / "config.toml").read_text()
    states = tomllib.loads(text)["hooks"]["state"]
    assert states[f"{source}:stop:0:0"] == {"enabled": True, "trusted_hash": "sha256:theirs"}
    assert states[f"{source}:stop:1:0"]["trusted_hash"] != "sha256:theirs"  # ours, now after theirs
    assert tomllib.loads(text)["instructions"] == "first\n\n\nlast" and "# my own trust, kept by hand" in text


def test_a_backup_keeps_the_files_mode_and_a_symlinked_config_stays_a_link(home):
    real = home / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text(json.dumps({"env": {"TOKEN": "secret"}}))
    real.chmod(0o600)
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").symlink_to(real)
    assert signet("connect", "claude-code") == 0
    assert (home / ".claude" / "settings.json").is_symlink() and our_commands(json.loads(real.read_text()))
    (backup,) = backups(home / ".claude")
    assert backup.stat().st_mode & 0o777 == 0o600 and real.stat().st_mode & 0o777 == 0o600
