// Compile every wheel's Python to .pyc with the very Python the phone runs (Pyodide's, in
// Node), so the phone imports without compiling: the imports are half the engine's start.
// The .pyc are unchecked-hash ones (used as they are, whatever the files' times), placed
// in __pycache__ beside their sources and listed in the wheel's RECORD.
//
//   node precompile.mjs PYODIDE_FOLDER IN_FOLDER OUT_FOLDER
// reads IN_FOLDER/*.whl and writes the same names to OUT_FOLDER.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideFolder, inFolder, outFolder] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideFolder, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideFolder + path.sep });
pyodide.mountNodeFS("/wheels-in", inFolder);
pyodide.mountNodeFS("/wheels-out", outFolder);
pyodide.runPython(`
import compileall, pathlib, py_compile, site, tempfile, zipfile

for wheel in sorted(pathlib.Path("/wheels-in").glob("*.whl")):
    unpacked = pathlib.Path(tempfile.mkdtemp())
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
        names = archive.namelist()
    ok = compileall.compile_dir(
        unpacked, quiet=2, ddir=site.getsitepackages()[0],
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    if not ok:
        raise SystemExit(f"{wheel.name}: a module does not compile")
    compiled = sorted(p.relative_to(unpacked).as_posix() for p in unpacked.rglob("*.pyc"))
    record = next(n for n in names if n.endswith(".dist-info/RECORD"))
    with zipfile.ZipFile(pathlib.Path("/wheels-out") / wheel.name, "w", zipfile.ZIP_DEFLATED) as out:
        for name in [n for n in names if not n.endswith("/")] + compiled:
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            data = (unpacked / name).read_bytes()
            if name == record:
                data += "".join(f"{c},," + chr(10) for c in compiled).encode()
            out.writestr(entry, data)
`);
