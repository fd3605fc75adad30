// gltf_draco_bridge.cc - the Draco decoder behind a C interface (see gltf_draco_bridge.h).
// The lab's only C++: everything else about KHR_draco_mesh_compression is gltf_draco.c.
#include "gltf/gltf_draco_bridge.h"

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

#include <cstdio>
#include <memory>
#include <new>

struct gltf_draco_mesh {
    std::unique_ptr<draco::Mesh> mesh;
};

gltf_draco_result gltf_draco_decode(const uint8_t *data, size_t size, gltf_draco_mesh **out, char *error,
                                    size_t error_size)
{
    *out = nullptr;
    if (error_size)
        error[0] = '\0';
    try {
        draco::DecoderBuffer buffer;
        buffer.Init(reinterpret_cast<const char *>(data), size);
        draco::Decoder decoder;
        auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
        if (!decoded.ok()) {
            std::snprintf(error, error_size, "%s", decoded.status().error_msg());
            return GLTF_DRACO_MALFORMED;
        }
        *out = new gltf_draco_mesh{std::move(decoded).value()};
        return GLTF_DRACO_OK;
    } catch (const std::bad_alloc &) {
        return GLTF_DRACO_OUT_OF_MEMORY;
    } catch (...) {
        std::snprintf(error, error_size, "the decoder failed");
        return GLTF_DRACO_MALFORMED;
    }
}

void gltf_draco_free(gltf_draco_mesh *mesh)
{
    delete mesh;
}

long gltf_draco_points(const gltf_draco_mesh *mesh)
{
    return static_cast<long>(mesh->mesh->num_points());
}

long gltf_draco_faces(const gltf_draco_mesh *mesh)
{
    return static_cast<long>(mesh->mesh->num_faces());
}

void gltf_draco_face(const gltf_draco_mesh *mesh, long f, uint32_t out[3])
{
    const draco::Mesh::Face &face = mesh->mesh->face(draco::FaceIndex(static_cast<uint32_t>(f)));
    for (int k = 0; k < 3; k++)
        out[k] = face[k].value();
}

int gltf_draco_components(const gltf_draco_mesh *mesh, int id)
{
    const draco::PointAttribute *a = id >= 0 ? mesh->mesh->GetAttributeByUniqueId(static_cast<uint32_t>(id)) : nullptr;
    return a ? a->num_components() : -1;
}

int gltf_draco_values(const gltf_draco_mesh *mesh, int id, long p, double *out)
{
    const draco::PointAttribute *a = mesh->mesh->GetAttributeByUniqueId(static_cast<uint32_t>(id));
    if (!a || p < 0 || p >= gltf_draco_points(mesh))
        return 0;
    draco::AttributeValueIndex value = a->mapped_index(draco::PointIndex(static_cast<uint32_t>(p)));
    return a->ConvertValue<double>(value, a->num_components(), out) ? 1 : 0;
}
