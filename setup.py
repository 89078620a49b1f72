"""Build step beyond pyproject.toml: compile the server's hot path with mypyc.

The modules of ``setback/compiled.py`` are compiled to C extensions (the CPU time the
server spends in Python a decision falls by some 40%: ``setback bench server``) when mypyc
and a C compiler are at hand; any failure leaves them as the Python they are, with a
warning, and the install goes on. ``SETBACK_COMPILE=0`` skips compiling. A successful
compile writes ``setback/compiled.json``, the hashes of the sources compiled, which the
package checks before it trusts the extensions.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


@functools.cache
def _compiled_module() -> Any:
    """``setback/compiled.py``, loaded on its own (the package's dependencies may be missing)."""
    spec = importlib.util.spec_from_file_location("_setback_compiled", HERE / "setback" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompileHotPath(build_ext):
    """Compile with mypyc when the build runs (not each time setuptools reads this file), or not at all."""

    hashes: dict[str, str] | None = None
    """The sources' hashes as mypyc read them, for the manifest once the compile succeeds."""

    def finalize_options(self) -> None:
        self.distribution.ext_modules = self._extensions()
        super().finalize_options()

    def _extensions(self) -> list[Extension]:
        if os.environ.get("SETBACK_COMPILE", "1") == "0":
            print("setback: SETBACK_COMPILE=0: the hot path stays Python", file=sys.stderr)
            return []
        compiled = _compiled_module()
        try:
            from mypyc.build import mypycify

            sources = [str(compiled.source_path(module, Path("setback"))) for module in compiled.MODULES]
            self.hashes = compiled.source_hashes(HERE / "setback")
            with contextlib.chdir(HERE):  # mypyc names modules by their paths from here
                return list(mypycify(
                    # the build has msgspec and structlog for their types; the other libraries
                    # are only called, never typed, by the compiled modules
                    ["--ignore-missing-imports", *sources],
                    group_name=compiled.GROUP, opt_level="3",
                ))
        except (Exception, SystemExit) as exc:  # any failure (mypy exits): the Python modules do the same work
            print(f"setback: could not compile the hot path ({exc!r}); it stays Python", file=sys.stderr)
            return []

    def run(self) -> None:
        manifest = self._manifest()
        manifest.unlink(missing_ok=True)
        if not self.extensions or self.hashes is None:
            return
        try:
            super().run()
        except (Exception, SystemExit) as exc:
            print(f"setback: could not compile the hot path ({exc!r}); it stays Python", file=sys.stderr)
            return
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps({"modules": self.hashes}, indent=1) + "\n")

    def _manifest(self) -> Path:
        return Path(HERE if self.inplace else self.build_lib) / "setback" / _compiled_module().MANIFEST

    def get_outputs(self) -> list[str]:
        outputs: list[str] = super().get_outputs()
        return [*outputs, str(self._manifest())] if self.extensions and not self.inplace else outputs


setup(
    # A stand-in, replaced when the build runs: it makes setuptools run build_ext and tag
    # the wheel for this platform, without compiling each time it reads this file.
    ext_modules=[Extension("setback._compiled__mypyc", sources=[])],
    cmdclass={"build_ext": CompileHotPath},
)
