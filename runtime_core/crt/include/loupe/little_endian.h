/*
 * Little-endian integers read from and written to byte buffers: the Ethos-U
 * payload and its command words, the bias/scale records, session messages. Byte by byte, so a
 * buffer need not be aligned and the result does not depend on the host's byte order; compilers
 * turn these into one load where the target allows it.
 *
 * Plain C99 and C++.
 */
#ifndef LOUPE_LITTLE_ENDIAN_H_
#define LOUPE_LITTLE_ENDIAN_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline uint16_t loupe_le_u16(const uint8_t* p) {
  return (uint16_t)((uint32_t)p[0] | ((uint32_t)p[1] << 8));
}

static inline uint32_t loupe_le_u32(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void loupe_put_le_u32(uint8_t* p, uint32_t value) {
  p[0] = (uint8_t)(value & 0xFFu);
  p[1] = (uint8_t)((value >> 8) & 0xFFu);
  p[2] = (uint8_t)((value >> 16) & 0xFFu);
  p[3] = (uint8_t)(value >> 24);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_LITTLE_ENDIAN_H_ */
