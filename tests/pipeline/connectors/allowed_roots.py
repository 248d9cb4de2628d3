"""The operator's connectors section of agent.yaml: which roots connectors may read."""

import yaml


def allow(workspace, *roots, **connectors):
    """What the operator writes in agent.yaml."""
    workspace.mkdir(parents=True, exist_ok=True)
    section = {"allowedRoots": [str(r) for r in roots], **connectors}
    (workspace / "agent.yaml").write_text(yaml.safe_dump({"connectors": section}))
