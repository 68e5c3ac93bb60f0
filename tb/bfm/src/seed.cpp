#include "dla/bfm/seed.h"

namespace dla::tb {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

uint64_t derive_seed(uint64_t master_seed, std::string_view stream_name) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a of the name: stable across builds and platforms
  for (char c : stream_name) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return splitmix64(splitmix64(master_seed) ^ h);
}

}  // namespace dla::tb
