// tinygltf's implementation, compiled with the fuzz targets' instrumentation. Images are decoded
// by raystream's own reader (the loader sets it), so tinygltf's stb_image is left out; the
// macros are the fuzz library's, so every file sees the same TinyGLTF class.
#define TINYGLTF_IMPLEMENTATION
#include <tiny_gltf.h>
