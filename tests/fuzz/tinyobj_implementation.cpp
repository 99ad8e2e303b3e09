// tinyobjloader's implementation, compiled with the fuzz targets' instrumentation.
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
