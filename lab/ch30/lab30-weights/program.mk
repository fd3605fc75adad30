# lab30-weights solves sparse systems with CHOLMOD, which it opens at run time
# (src/solve/sparse.h).
lab30-weights.libs = $(SOLVE_LIBS)
