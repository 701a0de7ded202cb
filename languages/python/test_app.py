"""The constructs from Python: the same YAML as the TypeScript app, and the library's own errors."""
import pathlib

import cdk8s
import pytest
from node_reporter import NodeReporterChart, NodeRequirement

from app import agent_app, reporter_app


def files(folder: pathlib.Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.k8s.yaml"))}


def test_the_reporter_synthesizes_the_committed_dist_byte_for_byte(dist, tmp_path):
    # GIVEN main.ts's app, written in Python
    # WHEN it synthesizes
    reporter_app(str(tmp_path)).synth()
    # THEN every file is the committed dist/'s, and there is no other
    assert files(tmp_path) == files(dist)


def test_the_agent_synthesizes_what_the_typescript_app_does(typescript_agent, tmp_path):
    # GIVEN the realistic agent (host network, read-only host path, privileged with its reason, tolerations)
    # WHEN it synthesizes
    agent_app(str(tmp_path)).synth()
    # THEN the bytes are languages/typescript/agent.ts's
    assert (tmp_path / "agent.k8s.yaml").read_bytes() == typescript_agent.read_bytes()


def test_a_bad_prop_raises_the_librarys_message_naming_it(tmp_path):
    # GIVEN an app
    app = cdk8s.App(outdir=str(tmp_path))
    # WHEN a chart is given a version with a space
    # THEN the error is the library's, naming the prop, the value and what is allowed
    with pytest.raises(Exception) as raised:
        NodeReporterChart(app, "bad", version="not a version!")
    message = str(raised.value)
    assert "'version' must be a plain token" in message
    assert '"not a version!"' in message


def test_in_is_called_in_its_escaped_form():
    # GIVEN NodeRequirement.in, whose name is a Python keyword
    # WHEN it is called as jsii escapes it
    requirement = NodeRequirement.in_("node-role", "worker")
    # THEN it is the requirement TypeScript's NodeRequirement.in returns
    assert (requirement.key, requirement.operator, requirement.values) == ("node-role", "In", ["worker"])
