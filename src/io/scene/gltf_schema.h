// The glTF schema's types, checked on the document's JSON before tinygltf reads it, and the
// buffer views checked against their buffers. Part of the glTF reader (gltf_loader.h).
#pragma once

#include "io/scene/json_reader.h"

namespace raystream::gltf {

// Throws SceneError naming the file and the property (e.g. "meshes[2].primitives[0].mode"): a
// property the renderer reads, or an extension object, of the wrong type, a required property
// missing, a compressed-geometry extension required (Draco, meshopt), a buffer view that runs
// past its buffer, an image naming a buffer view out of range.
void check_document(const JsonReader& r, const Json& doc);

}  // namespace raystream::gltf
