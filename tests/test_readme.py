"""The README's examples run as written (so the front page cannot drift from the API)."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert len(blocks) >= 2
    namespace = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)   # later blocks use earlier names
    printed = capsys.readouterr().out.splitlines()
    assert printed[1] == "True"                 # the example's promise line
    assert namespace["hero"].stop in ("done", "slid", "blocked")
