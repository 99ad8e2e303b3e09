// The one definition of stb_image's functions in the renderer (textures, and any other image the
// scene loader reads include <stb/stb_image.h> without STB_IMAGE_IMPLEMENTATION). Only the
// formats the scene format documents are compiled in: PNG, JPEG, BMP, TGA and Radiance HDR.
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#define STBI_ONLY_HDR
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
