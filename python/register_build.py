"""Names a build tree's `ppl` package in the interpreter's user site-packages: a .pth file holding its folder, so
that `import ppl` finds it from anywhere (as an editable install does). Usage: register_build.py FOLDER NAME.pth"""
import os
import site
import sys

folder, name = os.path.abspath(sys.argv[1]), sys.argv[2]
target = site.getusersitepackages()
path = os.path.join(target, name)
text = folder + "\n"
try:
    with open(path) as f:
        if f.read() == text:
            sys.exit(0)
except OSError:
    pass
try:
    os.makedirs(target, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    print(f"ppl: {path} -> {folder}")
except OSError as e:  # a read-only home: the package is still importable with PYTHONPATH
    print(f"ppl: could not write {path} ({e}); use PYTHONPATH={folder}")
