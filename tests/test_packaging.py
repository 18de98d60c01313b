"""The desktop install: resources in the wheel, .desktop entry, metainfo, icon, bundle recipe.

The bundle itself is slow to build and is checked by packaging/build_bundle.sh, not here;
these tests check its inputs, and that a real (non-editable) install finds its resources.
"""

from __future__ import annotations

import configparser
import importlib.metadata
import json
import os
import shutil
import struct
import subprocess
import sys
import sysconfig
import textwrap
import types
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import inspector
from inspector import resource_files as rf
from inspector.core.errors import InspectorError

REPO = Path(__file__).resolve().parent.parent
RESOURCES = REPO / "resources"
SPEC = REPO / "packaging" / "torch-device-inspector.spec"
# QtOpenGL*: pyqtgraph imports them whether or not it draws with OpenGL.
QT_MODULES_THE_APP_USES = ("PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets")


# ------------------------------------------------------------------ resources


def png_size(data: bytes) -> tuple[int, int]:
    # The PNG header is 8 signature bytes then the IHDR chunk: length, type, width, height.
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_every_icon_size_is_a_png_of_that_size():
    for size, data in rf.icon_pngs().items():
        assert png_size(data) == (size, size), rf.icon_png_name(size)


def test_icon_svg_is_an_svg_document():
    root = ET.fromstring(rf.read_bytes(rf.ICON_SVG))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_a_missing_resource_is_a_clear_inspector_error():
    with pytest.raises(InspectorError, match="reinstall"):
        rf.read_bytes("icons/no-such-icon.png")


def test_resource_accessor_works_without_qt():
    code = "import sys; sys.modules['PySide6'] = None; from inspector import resource_files as rf; print(len(rf.icon_pngs()))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(len(rf.ICON_SIZES))


def read_desktop_entry() -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # desktop entry keys are case-sensitive
    parser.read_string(rf.read_text(rf.DESKTOP_FILE))
    return dict(parser["Desktop Entry"])


def test_desktop_entry_launches_the_app_with_its_icon():
    entry = read_desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == rf.DISPLAY_NAME
    assert entry["Exec"].split()[0] == rf.APP_NAME
    assert entry["Icon"] == rf.APP_ID  # the installed icon's file name, without suffix
    assert entry["Terminal"] == "false"
    assert entry["Categories"].endswith(";")
    # Qt names the X11 window class after the application name: this is how docks match it.
    assert entry["StartupWMClass"] == rf.APP_NAME


def test_desktop_entry_exec_is_the_installed_console_script():
    tomllib = pytest.importorskip("tomllib")
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert read_desktop_entry()["Exec"].split()[0] in scripts


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-validate not installed (apt-get install desktop-file-utils)")
def test_desktop_entry_passes_desktop_file_validate():
    result = subprocess.run(["desktop-file-validate", str(RESOURCES / rf.DESKTOP_FILE)], capture_output=True, text=True)
    assert result.returncode == 0 and "error:" not in result.stdout, result.stdout + result.stderr


def test_metainfo_describes_this_app_and_release():
    root = ET.fromstring(rf.read_bytes(rf.METAINFO_FILE))
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == rf.APP_ID
    assert root.findtext("name") == rf.DISPLAY_NAME
    for required in ("summary", "description", "metadata_license", "project_license"):
        assert root.find(required) is not None, f"<{required}> missing"
    launchable = root.find("launchable")
    assert launchable.get("type") == "desktop-id" and launchable.text == rf.DESKTOP_FILE
    assert root.findtext("provides/binary") == rf.APP_NAME
    releases = [release.get("version") for release in root.iter("release")]
    assert inspector.__version__ in releases, f"no <release> for version {inspector.__version__}"


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstreamcli not installed (apt-get install appstream)")
def test_metainfo_passes_appstreamcli_validate():
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(RESOURCES / rf.METAINFO_FILE)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


# ------------------------------------------------------------------ branding (Qt)


@pytest.fixture
def restored_app(qapp):
    """The test QApplication, with its names, icon and style sheet put back afterwards."""
    saved = (qapp.applicationName(), qapp.applicationDisplayName(), qapp.desktopFileName(), qapp.windowIcon(), qapp.styleSheet())
    yield qapp
    name, display, desktop, icon, style = saved
    qapp.setApplicationName(name)
    qapp.setApplicationDisplayName(display)
    qapp.setDesktopFileName(desktop)
    qapp.setWindowIcon(icon)
    qapp.setStyleSheet(style)


def test_apply_branding_names_the_app_for_the_desktop(restored_app):
    from inspector.gui.common.branding import apply_branding

    apply_branding(restored_app)
    assert restored_app.applicationName() == "torch-device-inspector"
    assert restored_app.applicationDisplayName() == "Torch Device Inspector"
    assert restored_app.desktopFileName() == rf.APP_ID
    assert restored_app.organizationDomain() == rf.ORGANIZATION_DOMAIN
    assert not restored_app.windowIcon().isNull()
    assert "#errorBanner" in restored_app.styleSheet()


def test_app_icon_has_every_size_so_nothing_is_scaled_from_512(qapp):
    from inspector.gui.common.branding import app_icon

    sizes = sorted(size.width() for size in app_icon().availableSizes())
    assert sizes == sorted(rf.ICON_SIZES)


def test_apply_branding_survives_a_missing_icon(restored_app, monkeypatch, caplog):
    from inspector.gui.common import branding

    monkeypatch.setattr(rf, "ICON_SIZES", (16, 999))  # 999 px was never rendered
    branding.apply_branding(restored_app)
    assert restored_app.desktopFileName() == rf.APP_ID
    assert "without the app's icon" in caplog.text


# ------------------------------------------------------------------ desktop-entry installer


@pytest.mark.skipif(os.name == "nt" or shutil.which("bash") is None, reason="the desktop entry is a Linux (XDG) thing")
def test_desktop_entry_installer_puts_entry_and_icons_where_xdg_looks(tmp_path):
    executable = tmp_path / "my bundle" / rf.APP_NAME
    executable.parent.mkdir()
    executable.write_text("#!/bin/sh\n")
    executable.chmod(0o755)
    data = tmp_path / "data"
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    installer = [str(REPO / "packaging" / "install_desktop_entry.sh")]
    result = subprocess.run(installer + [str(executable), str(RESOURCES)], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr

    entry = data / "applications" / rf.DESKTOP_FILE
    # Exec names this executable, quoted because its path has a space.
    assert f'Exec="{executable}"' in entry.read_text().splitlines()
    for size in rf.ICON_SIZES:
        assert (data / "icons/hicolor" / f"{size}x{size}" / "apps" / f"{rf.APP_ID}.png").is_file()
    assert (data / "icons/hicolor/scalable/apps" / f"{rf.APP_ID}.svg").is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout

    result = subprocess.run(installer + ["--uninstall"], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert not entry.exists()
    assert not list(data.glob(f"icons/hicolor/*/apps/{rf.APP_ID}.*"))


# ------------------------------------------------------------------ bundle recipe


def run_spec() -> types.SimpleNamespace:
    """Execute the PyInstaller spec with stand-ins for PyInstaller's classes; return what it passed them."""
    calls: dict[str, tuple] = {}

    def recorder(kind):
        def record(*args, **kwargs):
            calls[kind] = (args, kwargs)
            return types.SimpleNamespace(datas=list(kwargs.get("datas", [])), binaries=[], pure=[], scripts=[])

        return record

    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_submodules = lambda package: [package]
    fake_modules = {"PyInstaller": types.ModuleType("PyInstaller"), "PyInstaller.utils": types.ModuleType("PyInstaller.utils"), "PyInstaller.utils.hooks": hooks}
    namespace = {kind: recorder(kind) for kind in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")}
    namespace.update(SPECPATH=str(SPEC.parent), __file__=str(SPEC))
    saved_path = list(sys.path)
    saved_modules = {name: sys.modules.get(name) for name in fake_modules}
    sys.modules.update(fake_modules)
    try:
        exec(compile(SPEC.read_text(), str(SPEC), "exec"), namespace)
    finally:
        sys.path[:] = saved_path
        for name, module in saved_modules.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return types.SimpleNamespace(calls=calls, namespace=namespace)


def test_bundle_spec_names_files_that_exist():
    spec = run_spec()
    args, kwargs = spec.calls["Analysis"]
    scripts = args[0]
    assert scripts and all(Path(script).is_file() for script in scripts), scripts
    for source, destination in kwargs["datas"]:
        assert Path(source).exists(), source
    # importlib.resources looks for the package inspector.resources at inspector/resources.
    assert (str(RESOURCES), "inspector/resources") in kwargs["datas"]
    assert spec.namespace["NAME"] == rf.APP_NAME


def test_bundle_spec_keeps_the_qt_modules_the_app_uses():
    excluded = set(run_spec().calls["Analysis"][1]["excludes"])
    assert not excluded & set(QT_MODULES_THE_APP_USES)
    assert "PySide6.QtWebEngineCore" in excluded


def test_bundle_spec_drops_headers_and_tests_but_keeps_libraries_and_resources():
    is_wanted = run_spec().namespace["is_wanted"]
    for dropped in ("torch/include/ATen/ATen.h", "torch/bin/protoc", "torch/bin/test_jit", "torch/lib/libtorchbind_test.so", "numpy/_core/tests/test_a.py"):
        assert not is_wanted((dropped, "src", "DATA")), dropped
    kept = ["torch/testing/_internal/logging_tensor.py", "torch/lib/libtorch_cpu.so", "torch/lib/libc10.so", "torch/bin/torch_shm_manager", "PySide6/Qt/plugins/platforms/libqxcb.so"]
    kept += [f"inspector/resources/{rf.icon_png_name(size)}" for size in rf.ICON_SIZES] + [f"inspector/resources/{rf.DESKTOP_FILE}"]
    for wanted in kept:
        assert is_wanted((wanted, "src", "DATA")), wanted


# ------------------------------------------------------------------ a real, non-editable install


def source_packages() -> set[str]:
    """Every folder of Python modules under inspector/, as a dotted package name."""
    folders = {path.parent for path in (REPO / "inspector").rglob("*.py") if "__pycache__" not in path.parts}
    return {".".join(folder.relative_to(REPO).parts) for folder in folders}


def test_pyproject_lists_every_package_in_the_source_tree():
    tomllib = pytest.importorskip("tomllib")
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    missing = source_packages() - listed
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml, or the wheel lacks them"


@pytest.fixture(scope="module")
def installed_venv(tmp_path_factory) -> Path:
    """A fresh virtual environment with the project pip-installed into it, not editable.

    torch, PySide6 & co. come from this environment through a .pth file, so nothing is
    downloaded; the project itself is built from a copy of the sources and installed.
    """
    # Installing without build isolation uses this environment's pip and setuptools.
    # (Versions read from metadata: importing setuptools here would trip its distutils shim.)
    for package, minimum in (("pip", 22), ("setuptools", 68)):
        try:
            major = int(importlib.metadata.version(package).split(".")[0])
        except importlib.metadata.PackageNotFoundError:
            major = 0
        if major < minimum:
            pytest.skip(f"installing the project into a fresh venv needs {package}>={minimum} in this environment")
    root = tmp_path_factory.mktemp("wheel-install")
    source = root / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist")
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    for name in ("inspector", "resources"):
        shutil.copytree(REPO / name, source / name, ignore=ignore)
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site_packages = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True, capture_output=True, text=True).stdout.strip())
    # Every site folder this interpreter sees (its own, plus any added by .pth files), in order.
    here = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    here += [entry for entry in sys.path if Path(entry).name in ("site-packages", "dist-packages")]
    (site_packages / "reuse_test_environment.pth").write_text("\n".join(dict.fromkeys(here)) + "\n")
    # --ignore-installed: the project is also installed (editable) in the environment the
    # .pth points at; pip must neither uninstall it nor count it as this venv's copy.
    result = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "--ignore-installed", "--quiet", str(source)],
        capture_output=True, text=True, timeout=300, cwd=root,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return venv


def run_in(venv: Path, args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    clean_env.update(QT_QPA_PLATFORM="offscreen", **env)
    # cwd is a temporary folder, so the source tree cannot stand in for the installed copy.
    return subprocess.run(args, capture_output=True, text=True, timeout=180, cwd=tmp_path, env=clean_env)


def bin_path(venv: Path, name: str) -> str:
    return str(venv / ("Scripts" if os.name == "nt" else "bin") / name)


def test_installed_console_script_prints_the_version(installed_venv, tmp_path):
    result = run_in(installed_venv, [bin_path(installed_venv, "torch-device-inspector"), "--version"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"torch-device-inspector {inspector.__version__}" in result.stdout
    assert "torch " in result.stdout and "Qt " in result.stdout


def test_installed_copy_finds_its_resources_and_icon(installed_venv, tmp_path):
    code = textwrap.dedent(
        """
        import json, inspector
        from importlib import resources
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from inspector.gui.common.branding import apply_branding
        apply_branding(app)
        print(json.dumps({
            "inspector": inspector.__file__,
            "resources": str(resources.files("inspector.resources")),
            "icon_sizes": sorted(s.width() for s in app.windowIcon().availableSizes()),
            "desktop_file": app.desktopFileName(),
            "style_sheet": len(app.styleSheet()),
        }))
        """
    )
    result = run_in(installed_venv, [bin_path(installed_venv, "python"), "-c", code], tmp_path)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    venv = str(installed_venv.resolve())
    assert found["inspector"].startswith(venv), f"imported {found['inspector']}, not the installed copy"
    assert found["resources"].startswith(venv)
    assert found["icon_sizes"] == sorted(rf.ICON_SIZES)
    assert found["desktop_file"] == rf.APP_ID
    assert found["style_sheet"] > 0


def test_installed_copy_has_every_module_of_the_source_tree(installed_venv, tmp_path):
    result = run_in(installed_venv, [bin_path(installed_venv, "python"), "-c", "import inspector, os; print(os.path.dirname(inspector.__file__))"], tmp_path)
    installed = Path(result.stdout.strip())
    source_modules = {p.relative_to(REPO / "inspector") for p in (REPO / "inspector").rglob("*.py") if "__pycache__" not in p.parts}
    installed_modules = {p.relative_to(installed) for p in installed.rglob("*.py") if "__pycache__" not in p.parts}
    assert not source_modules - installed_modules, f"missing from the wheel: {sorted(map(str, source_modules - installed_modules))}"


def test_installed_copy_speaks_chinese_from_its_own_catalogue(installed_venv, tmp_path):
    # The compiled .qm ships inside the wheel: a fresh install switches to zh_CN without the source tree.
    code = (
        "from PySide6.QtWidgets import QApplication; app = QApplication([]); from inspector.gui.common import i18n; "
        "print(i18n.apply_language('zh_CN'), i18n.translate('Menus', '&File'))"
    )
    result = run_in(installed_venv, [bin_path(installed_venv, "python"), "-c", code], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "文件(&F)"]


@pytest.mark.skipif(not (REPO / "inspector" / "gui" / "shell" / "app.py").exists(), reason="inspector.gui.shell.app (the window) is not written yet")
def test_installed_copy_opens_the_window_with_title_and_icon(installed_venv, tmp_path):
    from inspector.gui.shell.app import qt_binding_problem

    if problem := qt_binding_problem():
        pytest.skip(f"the window refuses to start with this Qt binding: {problem}")
    # The bundle's entry script closes the window after a second and reports what it saw.
    entry = str(REPO / "packaging" / "entry.py")
    result = run_in(installed_venv, [bin_path(installed_venv, "python"), entry], tmp_path, TORCH_DEVICE_INSPECTOR_SMOKE_SECONDS="1")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "smoke: windows=['" in result.stdout and "app_icon=set" in result.stdout, output
    assert f"display_name={rf.DISPLAY_NAME!r}" in result.stdout, output
    assert "Traceback" not in output and "QThread: Destroyed" not in output, output
