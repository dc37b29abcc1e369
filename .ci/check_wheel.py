"""Check an installed sidestep wheel: run by .ci/run with the wheel's own venv.

The package must come from site-packages (not the clone), hold its package
data (the scene JSON Schemas, the bundled dungeon level and its licence,
``py.typed``), report the version of its metadata, carry its licence files,
and run ``sidestep demo`` to the end, writing its picture.
"""
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

import sidestep

package = Path(sidestep.__file__).resolve().parent
assert "site-packages" in package.parts, f"sidestep imported from {package}, not the wheel"
for name in ("io/scene.schema.json", "io/scene3d.schema.json", "data/dungeon.obj",
             "data/LICENSE-recast.txt", "py.typed"):
    assert (package / name).is_file(), f"the wheel lacks sidestep/{name}"
assert metadata.version("sidestep") == sidestep.__version__
licences = [f for f in metadata.files("sidestep") if "licenses" in str(f)]
assert any(f.name == "LICENSE" for f in licences), licences
with tempfile.TemporaryDirectory() as tmp:
    out = Path(tmp) / "demo.png"
    subprocess.run([sys.executable, "-m", "sidestep", "demo", "--out", str(out)], check=True,
                   cwd=tmp)
    assert out.stat().st_size > 10_000, "the demo's picture is missing or empty"
print(f"wheel ok: sidestep {sidestep.__version__} from {package}")
