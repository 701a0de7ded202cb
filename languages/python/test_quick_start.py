"""The README's Python quick start, as written: quick_start/main.py and its cdk8s.yaml
(the validation plugin of the npm package), run by the cdk8s CLI."""
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile

HERE = pathlib.Path(__file__).parent


def test_the_readme_quick_start_synthesizes_with_the_checks_what_typescript_writes(typescript_quick_start, tmp_path):
    # GIVEN the README's app folder: main.py, cdk8s.yaml, and the npm package in node_modules (for the plugin)
    for name in ["main.py", "cdk8s.yaml"]:
        shutil.copy(HERE / "quick_start" / name, tmp_path / name)
    package = tmp_path / "node_modules" / "node-reporter"
    package.mkdir(parents=True)
    with tarfile.open(os.environ["NODE_REPORTER_NPM_TARBALL"]) as tarball:
        for member in tarball.getmembers():
            member.name = member.name.split("/", 1)[1]
            tarball.extract(member, package, filter="data")
    # WHEN `cdk8s synth` runs it, `python` being this venv's
    env = {**os.environ, "PATH": f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "CDK8S_CHECK_UPGRADE": "false"}
    result = subprocess.run([os.environ["NODE_REPORTER_CDK8S"], "synth", "--no-check-upgrade"], cwd=tmp_path, env=env, capture_output=True, text=True)
    # THEN the checks ran and passed, and the manifest is the TypeScript quick start's
    assert result.returncode == 0, result.stdout + result.stderr
    assert "node-reporter/build/lib/checks/validation-plugin.js@0.2.0" in result.stdout, result.stdout
    assert "Validations ended succesfully" in result.stdout, result.stdout
    assert (tmp_path / "dist" / "agents.k8s.yaml").read_bytes() == typescript_quick_start.read_bytes()
