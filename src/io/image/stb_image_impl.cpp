// The one definition of stb_image's functions in the renderer (the files that use them include
// the header without the IMPLEMENTATION macro). stb_image reads the two formats no dedicated
// library reads here, each checked first (io/image/stb_checks.h): TGA textures and Radiance HDR
// textures and environment maps.
#define STBI_ONLY_TGA
#define STBI_ONLY_HDR
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
