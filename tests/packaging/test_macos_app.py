"""The macOS app's Info.plist (packaging/hipocampo.spec): Finder may open every kind of file the
import reads with Hipocampo, without it ever becoming their default app."""

from __future__ import annotations

import ast
import plistlib
import sys

from desktop.drop import IMPORTABLE_SUFFIXES
from tests.packaging.conftest import ROOT, SPEC, project_version

sys.path.insert(0, str(ROOT / "packaging"))
import build_windows  # noqa: E402  (it runs the spec as PyInstaller does)


def test_info_plist_declares_the_files_the_import_reads(model_dir: object) -> None:
    _, names = build_windows.run_spec()
    plist = plistlib.loads(plistlib.dumps(names["INFO_PLIST"]))  # what PyInstaller writes, read back
    types = plist["CFBundleDocumentTypes"]
    extensions = [ext for entry in types for ext in entry["CFBundleTypeExtensions"]]
    assert sorted("." + ext for ext in extensions) == sorted(IMPORTABLE_SUFFIXES)
    for entry in types:
        assert entry["CFBundleTypeName"]
        assert (entry["CFBundleTypeRole"], entry["LSHandlerRank"]) == ("Viewer", "Alternate"), entry
    assert plist["CFBundleShortVersionString"] == project_version()
    # …and it is the plist the .app gets.
    calls = [node for node in ast.walk(ast.parse(SPEC.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "BUNDLE"]
    (bundle,) = calls
    (keyword,) = [k for k in bundle.keywords if k.arg == "info_plist"]
    assert isinstance(keyword.value, ast.Name) and keyword.value.id == "INFO_PLIST"
