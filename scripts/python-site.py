"""python-site.py PREFIX - where `make install PREFIX=...` puts the Python module.

Asks the interpreter running it (the Makefile's PYTHON, Debian's python3) for the
folder its own install schemes give under PREFIX, so that the module lands where that
python3 looks with no PYTHONPATH: on Debian, PREFIX=/usr/local is the 'posix_local'
scheme (/usr/local/lib/python3.X/dist-packages) and PREFIX=/usr the 'deb_system' one
(/usr/lib/python3/dist-packages); elsewhere the interpreter's own scheme under its
prefix.  Any other PREFIX gets the standard 'posix_prefix' layout under it
(PREFIX/lib/python3.X/site-packages), which then needs PYTHONPATH.
"""
import os
import sys
import sysconfig


def schemes():
    """The interpreter's schemes to try, the one it prefers first."""
    names = []
    try:
        names.append(sysconfig.get_preferred_scheme("prefix"))  # Python 3.10+
    except AttributeError:
        names.append(sysconfig.get_default_scheme())
    names += ["posix_local", "deb_system", "posix_prefix"]
    available = sysconfig.get_scheme_names()
    return [n for i, n in enumerate(names) if n in available and n not in names[:i]]


def site_dir(prefix):
    """The scheme folder under prefix that python3 reads (on sys.path) if there is one,
    the nearest to prefix first (/usr/local/... is under /usr too, but is not /usr's)."""
    prefix = os.path.normpath(prefix)
    under = [os.path.normpath(sysconfig.get_path("platlib", s)) for s in schemes()]
    under = [p for p in under if p.startswith(prefix.rstrip("/") + "/")]
    if under:
        return min(under, key=lambda p: (p not in sys.path, p.count("/")))
    return sysconfig.get_path("platlib", "posix_prefix",
                              vars={"base": prefix, "platbase": prefix})


if __name__ == "__main__":
    print(site_dir(sys.argv[1]))
