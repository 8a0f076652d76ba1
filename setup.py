"""Maps the top-level folders into the `pokerzoo` namespace (envs/ -> pokerzoo.envs, ...).

setuptools' declarative `package-dir` cannot discover sub-packages under a renamed
root, so the mapping is computed here once for every package below the folders.
`configs/` travels too, as the data package `pokerzoo.configs`, so that a regular
(non-editable) install has the run configurations `pokerzoo demo` and the docs name.
"""

from setuptools import find_packages, setup

CODE_FOLDERS = ("envs", "agents", "evaluation", "training", "cli")

package_dir = {}
for top in (*CODE_FOLDERS, "configs"):
    for name in [top, *(f"{top}.{sub}" for sub in find_packages(top))]:
        package_dir[f"pokerzoo.{name}"] = name.replace(".", "/")

setup(packages=sorted(package_dir), package_dir=package_dir)
