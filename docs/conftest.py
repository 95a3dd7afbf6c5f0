"""pytest in docs/: the pages' ``>>>`` examples run; Sphinx's own files do not.

``conf.py`` and the extension in ``_ext/`` need Sphinx, which the test extra
does not install (``.ci/run`` builds the docs after the tests); their
behaviour is tested by building the docs and by ``tests/test_docs_reference.py``.
"""

collect_ignore = ["conf.py"]
collect_ignore_glob = ["_ext/*"]
