// glTF accessors: an accessor's type and component type checked against what reads it, and its
// elements checked to lie within its buffer view and buffer before one is read.
#include <algorithm>
#include <cstring>

#include "io/scene/gltf_builder.h"

namespace raystream::gltf {
namespace {

int component_count(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return 1;
    case TINYGLTF_TYPE_VEC2:
      return 2;
    case TINYGLTF_TYPE_VEC3:
      return 3;
    case TINYGLTF_TYPE_VEC4:
      return 4;
    default:
      return 0;
  }
}

std::size_t component_bytes(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;
  }
}

}  // namespace

float AccessorView::get(std::size_t i, int c) const {
  const unsigned char* p = data + i * stride + std::size_t(c) * component_bytes(component_type);
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return normalized ? float(p[0]) / 255.0f : float(p[0]);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? float(v) / 65535.0f : float(v);
    }
    default:
      return 0.0f;
  }
}

std::uint32_t AccessorView::index(std::size_t i) const {
  const unsigned char* p = data + i * stride;
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return p[0];
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    default: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

AccessorView Builder::accessor(int index, const std::string& key, std::initializer_list<int> types,
                               std::initializer_list<int> component_types, bool normalized_only) {
  check_index(index, m_.accessors, key, "accessor");
  const std::string where = "accessors[" + std::to_string(index) + "]";
  const tinygltf::Accessor& a = m_.accessors[std::size_t(index)];
  if (a.sparse.isSparse) fail(where, "sparse accessors are not supported");
  if (std::find(types.begin(), types.end(), a.type) == types.end())
    fail(where, "the type does not fit " + key);
  if (std::find(component_types.begin(), component_types.end(), a.componentType) ==
      component_types.end())
    fail(where, "componentType " + std::to_string(a.componentType) + " does not fit " + key);
  if (normalized_only && a.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT && !a.normalized)
    fail(where, "integer texture coordinates must be normalized");
  if (a.bufferView < 0) fail(where, "has no bufferView (an accessor of zeros is not supported)");
  check_index(a.bufferView, m_.bufferViews, where + ".bufferView", "buffer view");
  const tinygltf::BufferView& v = m_.bufferViews[std::size_t(a.bufferView)];
  const std::string view = "bufferViews[" + std::to_string(a.bufferView) + "]";
  check_index(v.buffer, m_.buffers, view + ".buffer", "buffer");
  const std::vector<unsigned char>& data = m_.buffers[std::size_t(v.buffer)].data;
  if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset)
    fail(view, "runs past the end of its buffer (" + std::to_string(data.size()) + " bytes)");
  AccessorView out;
  out.components = component_count(a.type);
  out.component_type = a.componentType;
  out.normalized = a.normalized;
  out.count = a.count;
  const std::size_t element = std::size_t(out.components) * component_bytes(a.componentType);
  out.stride = v.byteStride != 0 ? v.byteStride : element;
  if (out.stride < element)
    fail(view, "byteStride " + std::to_string(out.stride) + " is smaller than an element (" +
                   std::to_string(element) + " bytes)");
  if (a.count == 0) fail(where, "count must be at least 1");
  // The last element ends within the view (the products cannot overflow: both sides are below
  // the buffer's size or the count is refused first).
  if (a.byteOffset > v.byteLength || (a.count - 1) > (v.byteLength - a.byteOffset) / out.stride ||
      (a.count - 1) * out.stride + element > v.byteLength - a.byteOffset)
    fail(where, "its " + std::to_string(a.count) + " elements run past the end of " + view);
  out.data = data.data() + v.byteOffset + a.byteOffset;
  return out;
}

}  // namespace raystream::gltf
