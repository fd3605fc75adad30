# lab30-weights solves sparse systems with CHOLMOD (src/solve/sparse.h).
lab30-weights.libs = $(SOLVE_LIBS)
