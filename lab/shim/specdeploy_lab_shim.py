"""LAB-ONLY shim: empty stand-in packages for modules SGLang's CPU path imports but never uses.

SGLang 0.5.23 imports ``sgl_kernel`` (CUDA-only wheels) and ``torchvision`` (PyPI's build does not
load beside the CPU torch) unconditionally. On the lab machine (no GPU) the CPU engine never calls
them. This finder answers those imports with empty packages whose attributes are permissive dummies.

It is activated only when ``SPECDEPLOY_LAB_SHIM_MODULES`` lists module names (comma separated), and
is loaded from a ``.pth`` file so that SGLang's spawned scheduler/detokenizer children get it too.
It is a stand-in for the lab, named as such; the roles install it only when an inventory sets
``gpu_env_lab_shim: true``.
"""
import importlib.abc
import importlib.machinery
import importlib.metadata
import os
import sys
import types

ENV_VAR = "SPECDEPLOY_LAB_SHIM_MODULES"
# The version the stand-ins report through importlib.metadata (transformers parses it).
SHIM_DIST_VERSION = "0.0.0+specdeploy.lab.shim"


class _Dummy:
    """Works as a class, callable, decorator, attribute holder or subscript; always falsy."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]):
            return args[0]  # used as a decorator
        return _Dummy()

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Dummy()

    def __getitem__(self, item):
        return _Dummy()

    def __iter__(self):
        return iter(())

    def __bool__(self):
        return False

    def __mro_entries__(self, bases):
        return (object,)

    def __repr__(self):
        return "<specdeploy lab shim dummy>"


class _ShimModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Dummy()


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        module = _ShimModule(spec.name)
        module.__path__ = []  # a package, so submodules resolve through the finder too
        module.__specdeploy_lab_shim__ = True
        # transformers 5.12 asks the module itself when no installed distribution maps to the import name
        module.__version__ = SHIM_DIST_VERSION
        return module

    def exec_module(self, module):
        return None


class ShimFinder(importlib.abc.MetaPathFinder):
    def __init__(self, names):
        self.names = frozenset(names)

    def _covered(self, fullname):
        return fullname.split(".")[0] in self.names

    def find_spec(self, fullname, path=None, target=None):
        if not self._covered(fullname):
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)

    def find_distributions(self, context=importlib.metadata.DistributionFinder.Context()):
        """Metadata for the stand-ins, so version probes get a parseable (and telling) version."""
        wanted = context.name
        for name in sorted(self.names):
            if wanted is None or wanted.replace("-", "_").lower() == name.lower():
                yield _ShimDistribution(name)


class _ShimDistribution(importlib.metadata.Distribution):
    def __init__(self, name):
        self._name = name

    def read_text(self, filename):
        if filename == "METADATA":
            return f"Metadata-Version: 2.1\nName: {self._name}\nVersion: {SHIM_DIST_VERSION}\n"
        if filename == "top_level.txt":  # importlib.metadata.packages_distributions() maps the module to it
            return self._name + "\n"
        return None

    def locate_file(self, path):
        return None


def install():
    names = [n.strip() for n in os.environ.get(ENV_VAR, "").split(",") if n.strip()]
    if not names:
        return None
    if any(isinstance(f, ShimFinder) for f in sys.meta_path):
        return None
    finder = ShimFinder(names)
    sys.meta_path.insert(0, finder)
    return finder


install()
