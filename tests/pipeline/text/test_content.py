import hashlib
import time

import pytest

from signet_pipeline.text.content import asks, infer_type, normalize_content, parse_prefixes, parse_tags


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(
    ("raw", "storage", "normalized"),
    [
        ("  User   prefers\tdark\n mode.  ", "User prefers dark mode.", "user prefers dark mode"),
        ("Hello World!?!", "Hello World!?!", "hello world"),
        ("ends with colon;:", "ends with colon;:", "ends with colon"),
        ("...", "...", ""),  # empty after stripping: hash falls back to lowercased storage
        ("Keep (parens)", "Keep (parens)", "keep (parens)"),
        ("Ünïcode TEXT", "Ünïcode TEXT", "ünïcode text"),
    ],
)
def test_normalization_follows_the_spec_formulas(raw, storage, normalized):
    out = normalize_content(raw)
    assert out.storage == storage
    assert out.normalized == normalized
    assert out.content_hash == sha(normalized or storage.lower())


def test_case_and_trailing_punctuation_share_a_hash():
    a = normalize_content("The kettle is in the LEFT cupboard.")
    b = normalize_content("the kettle is in the left cupboard")
    c = normalize_content("the kettle is in the left cupboard!!")
    assert a.content_hash == b.content_hash == c.content_hash
    assert normalize_content("the kettle is in the right cupboard").content_hash != a.content_hash


def test_prefixes_critical_and_tags_in_either_order():
    p = parse_prefixes("critical: [project, auth]: never expose tokens")
    assert (p.content, p.pinned, p.tags) == ("never expose tokens", True, ["project", "auth"])
    p = parse_prefixes("[a,b]: CRITICAL: x")
    assert (p.content, p.pinned, p.tags) == ("x", True, ["a", "b"])
    p = parse_prefixes("no prefix: critical: here")
    assert (p.content, p.pinned, p.tags) == ("no prefix: critical: here", False, [])


def test_parse_tags_accepts_strings_and_lists():
    assert parse_tags("a, b,,a ,c") == ["a", "b", "c"]
    assert parse_tags(["x", " y ", ""]) == ["x", "y"]
    assert parse_tags(None) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("User prefers vim keybindings", "preference"),
        ("Nicholai likes short answers", "preference"),
        ("We decided to use PostgreSQL", "decision"),
        ("The team agreed on weekly releases", "decision"),
        ("We will use uv for packaging", "decision"),
        ("Never commit secrets", "rule"),
        ("Always run the tests first", "rule"),
        ("I learned that WAL needs shared memory", "learning"),
        ("Found a bug in the parser", "issue"),
        ("The build is broken on arm64", "issue"),
        ("Signet stores data in SQLite", "fact"),
    ],
)
def test_type_inference_uses_the_spec_keywords(text, expected):
    assert infer_type(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Decision: Python for the CLI, not Node.", "decision"),
    ("Rule: no deploys after 4pm", "rule"),
    ("Lesson: pin the wheel versions", "learning"),
    ("Bug: the importer drops emoji", "issue"),
    ("Decisions: we keep SQLite", "decision"),
])
def test_a_note_that_opens_with_its_kind_has_that_type(text, expected):
    assert infer_type(text) == expected


def test_hash_is_pinned_to_known_values():
    # Fixed outputs, so a change to the normalization or hashing cannot pass unnoticed
    # (existing databases dedup on these hashes).
    assert normalize_content("  User prefers DARK mode!  ").content_hash == (
        "058e6f30768bdcc4b10c6310b0b3084eaee94c6ba986b8bfef1df175b2af2058")
    assert normalize_content("...").content_hash == (
        "ab5df625bc76dbd4e163bed2dd888df828f90159bb93556525c31821b6541d46")


@pytest.mark.parametrize("text, expected", [
    ("Ana: any fitness tips for me?", True), ("how was work today? 🙃", True), ("(really?)", True),
    ("Ana: I swim every morning.", False), ("Is it? No, it's fine.", False), ("", False),
])
def test_asks(text, expected):
    assert asks(text) is expected


def test_asks_costs_little_on_long_input():
    """It once took seconds on a long run of punctuation (a regex retrying at each position)."""
    started = time.perf_counter()
    for text in ["!" * 100_000, "-" * 100_000 + "?"]:
        asks(text)
    assert time.perf_counter() - started < 1.0
