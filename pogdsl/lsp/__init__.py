"""`pogdsl lsp`: the language server for `.pog` sources (pygls, over stdio).

The compiler knows nothing of it: the server compiles the project with the
editor's unsaved text in place of the saved file (`compile_paths(unsaved=…)`)
and answers from what the compiler built (analysis.py).
"""
