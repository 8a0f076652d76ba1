"""Maps the top-level folders envs/, agents/, training/ into the `pokerzoo` namespace.

setuptools' declarative `package-dir` cannot discover sub-packages under a renamed
root, so the mapping is computed here once for every package below the three folders.
"""

from setuptools import find_packages, setup

package_dir = {}
for top in ("envs", "agents", "training"):
    for name in [top, *(f"{top}.{sub}" for sub in find_packages(top))]:
        package_dir[f"pokerzoo.{name}"] = name.replace(".", "/")

setup(packages=sorted(package_dir), package_dir=package_dir)
