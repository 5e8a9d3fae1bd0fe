"""Every prove_jax package's `__all__` names something it defines: `from pkg import *` raises
on a listed name the package never imported."""

import importlib
import pkgutil

import prove_jax


def _packages() -> list[str]:
    return ["prove_jax"] + [m.name for m in pkgutil.walk_packages(prove_jax.__path__, "prove_jax.")
                            if m.ispkg]


def test_every_name_in_every_package_all_resolves():
    checked = []
    for name in _packages():
        package = importlib.import_module(name)
        exported = getattr(package, "__all__", None)
        if exported is None:
            continue
        missing = [n for n in exported if not hasattr(package, n)]
        assert not missing, f"{name}.__all__ lists names it does not define: {missing}"
        namespace: dict = {}
        exec(f"from {name} import *", namespace)  # what a user's star import runs
        assert set(exported) <= set(namespace)
        checked.append(name)
    # not vacuous: the packages known to declare __all__ were all reached
    assert {"prove_jax.sampling", "prove_jax.rl", "prove_jax.rewards"} <= set(checked)


def test_sampling_star_import():
    namespace: dict = {}
    exec("from prove_jax.sampling import *", namespace)
    assert callable(namespace["split_stop_strings"])
    assert callable(namespace["truncate_at_stop_strings"])
