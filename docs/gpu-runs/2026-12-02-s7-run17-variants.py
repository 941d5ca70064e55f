# Makes the bisection's variants of benchmarks/common/sweep.cu (session 7, run 16's per-launch offset).
import sys
path, variant = sys.argv[1], sys.argv[2]
s = open(path).read()
if variant == "nomem":  # no cudaMemcpyAsync candidate
    a = s.index("    // Outside a graph (copies.h")
    b = s.index("    out.push_back(memcpy_figure);\n") + len("    out.push_back(memcpy_figure);\n")
    s = s[:a] + s[b:]
elif variant == "nocheck":  # no check (poison, copy on the legacy stream, count) before the timing
    s = s.replace("        if (!checked(name, copy)) return CopyFigure{name, 0};\n", "")
    s = s.replace('if (checked("cudaMemcpyAsync", memcpy_async))', "if (true)")
elif variant == "norow":  # no row copies: the grid-stride copy and cudaMemcpyAsync only
    for t in ("128x1", "64x2"):
        a = s.index('    out.push_back(in_graph("row copy ' + t)
        b = s.index("\n", s.index("row_copy(b, a, bytes", a)) + 1
        s = s[:a] + s[b:]
else:
    sys.exit("unknown variant " + variant)
open(path, "w").write(s)
