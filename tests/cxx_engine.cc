// cxx_engine.cc - an engine's C++ translation unit using the lab's library, as one would:
// every public header of src/ included from C++17 (alignas where C has _Alignas, the
// declarations in extern "C"), and a few calls across the boundary linked against
// build/libskinlab.a. test_docs builds it with the build's C++ compiler and runs it; it
// prints "cxx-engine: ok" and exits 0 when the blends agree.
#include <cmath>
#include <cstdio>

#include "base/bytes.h"
#include "base/child.h"
#include "base/diag.h"
#include "base/library.h"
#include "base/report.h"
#include "base/text.h"
#include "base/timer.h"
#include "draw/camera.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "gltf/gltf.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "mesh/scene.h"
#include "program/output.h"
#include "skin/blend.h"
#include "skin/fastskin.h"
#include "skin/influences.h"
#include "skin/packed.h"
#include "skin/pose.h"

int main()
{
    static_assert(alignof(palette_columns) == 64, "a palette entry is one cache line");
    const mat4 palette[2] = {mat4_identity(), mat4_mul(mat4_translate(0, 0, 2), mat4_rotate_z(0.5))};
    const int joint[2] = {0, 1};
    const double weight[2] = {0.25, 0.75};
    vec4 p = skin_lbs_point(vec3_make(1, 0, 1), joint, weight, 2, palette);
    // the same blend written here: 0.25 p + 0.75 (Tz(2) Rz(0.5) p)
    double x = 0.25 * 1 + 0.75 * std::cos(0.5), y = 0.75 * std::sin(0.5), z = 0.25 * 1 + 0.75 * 3;
    palette_matrix floats[2];
    palette_from_mat4(palette, 2, nullptr, floats);
    bool ok = std::fabs(p.x - x) < 1e-12 && std::fabs(p.y - y) < 1e-12 && std::fabs(p.z - z) < 1e-12 &&
              std::fabs(floats[1].m[2][3] - 2.0f) < 1e-6f && simd_level_name(simd_best_level()) != nullptr;
    std::printf("cxx-engine: %s (best SIMD level here: %s)\n", ok ? "ok" : "the blends differ",
                simd_level_name(simd_best_level()));
    return ok ? 0 : 1;
}
