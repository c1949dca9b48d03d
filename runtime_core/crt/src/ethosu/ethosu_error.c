/* Error records of the Ethos-U model (loupe/ethosu/ethosu_error.h). */
#include <loupe/ethosu/ethosu_error.h>
#include <stddef.h>

const char* loupe_ethosu_status_name(int code) {
  switch (code) {
    case LOUPE_ETHOSU_OK:
      return "LOUPE_ETHOSU_OK";
    case LOUPE_ETHOSU_ERR_ARGUMENT:
      return "LOUPE_ETHOSU_ERR_ARGUMENT";
    case LOUPE_ETHOSU_ERR_FOURCC:
      return "LOUPE_ETHOSU_ERR_FOURCC";
    case LOUPE_ETHOSU_ERR_PAYLOAD_SIZE:
      return "LOUPE_ETHOSU_ERR_PAYLOAD_SIZE";
    case LOUPE_ETHOSU_ERR_UNKNOWN_ACTION:
      return "LOUPE_ETHOSU_ERR_UNKNOWN_ACTION";
    case LOUPE_ETHOSU_ERR_ACTION_TRUNCATED:
      return "LOUPE_ETHOSU_ERR_ACTION_TRUNCATED";
    case LOUPE_ETHOSU_ERR_CONFIG_MISMATCH:
      return "LOUPE_ETHOSU_ERR_CONFIG_MISMATCH";
    case LOUPE_ETHOSU_ERR_NO_COMMAND_STREAM:
      return "LOUPE_ETHOSU_ERR_NO_COMMAND_STREAM";
    case LOUPE_ETHOSU_ERR_UNKNOWN_COMMAND:
      return "LOUPE_ETHOSU_ERR_UNKNOWN_COMMAND";
    case LOUPE_ETHOSU_ERR_STREAM_TRUNCATED:
      return "LOUPE_ETHOSU_ERR_STREAM_TRUNCATED";
    case LOUPE_ETHOSU_ERR_INVALID_OPERATION:
      return "LOUPE_ETHOSU_ERR_INVALID_OPERATION";
    case LOUPE_ETHOSU_ERR_REGION:
      return "LOUPE_ETHOSU_ERR_REGION";
    case LOUPE_ETHOSU_ERR_ADDRESS:
      return "LOUPE_ETHOSU_ERR_ADDRESS";
    case LOUPE_ETHOSU_ERR_WEIGHT_STREAM:
      return "LOUPE_ETHOSU_ERR_WEIGHT_STREAM";
    case LOUPE_ETHOSU_ERR_WORKSPACE:
      return "LOUPE_ETHOSU_ERR_WORKSPACE";
    case LOUPE_ETHOSU_ERR_UNSUPPORTED:
      return "LOUPE_ETHOSU_ERR_UNSUPPORTED";
    case LOUPE_ETHOSU_ERR_ALIGNMENT:
      return "LOUPE_ETHOSU_ERR_ALIGNMENT";
    case LOUPE_ETHOSU_ERR_STOPPED:
      return "LOUPE_ETHOSU_ERR_STOPPED";
    default:
      return "LOUPE_ETHOSU_ERR_?";
  }
}

static size_t message_length(const loupe_ethosu_error* err) {
  size_t n = 0;
  while (n < LOUPE_ETHOSU_MESSAGE_CAPACITY && err->message[n] != '\0') ++n;
  return n;
}

void loupe_ethosu_append(loupe_ethosu_error* err, const char* text) {
  size_t n;
  if (err == NULL || text == NULL) return;
  n = message_length(err);
  while (*text != '\0' && n + 1 < LOUPE_ETHOSU_MESSAGE_CAPACITY) err->message[n++] = *text++;
  if (n < LOUPE_ETHOSU_MESSAGE_CAPACITY) err->message[n] = '\0';
}

void loupe_ethosu_clear_error(loupe_ethosu_error* err) {
  if (err == NULL) return;
  err->code = LOUPE_ETHOSU_OK;
  err->message[0] = '\0';
}

int loupe_ethosu_fail(loupe_ethosu_error* err, int code, const char* text) {
  if (err != NULL) {
    err->code = code;
    err->message[0] = '\0';
    loupe_ethosu_append(err, text);
  }
  return code;
}

void loupe_ethosu_append_u(loupe_ethosu_error* err, uint64_t value) {
  char digits[24];
  int n = 0;
  char text[24];
  int i;
  do {
    digits[n++] = (char)('0' + (int)(value % 10u));
    value /= 10u;
  } while (value != 0u && n < 23);
  for (i = 0; i < n; ++i) text[i] = digits[n - 1 - i];
  text[n] = '\0';
  loupe_ethosu_append(err, text);
}

void loupe_ethosu_append_i(loupe_ethosu_error* err, int64_t value) {
  if (value < 0) {
    loupe_ethosu_append(err, "-");
    loupe_ethosu_append_u(err, (uint64_t)0 - (uint64_t)value);
  } else {
    loupe_ethosu_append_u(err, (uint64_t)value);
  }
}

void loupe_ethosu_append_hex(loupe_ethosu_error* err, uint64_t value) {
  static const char hex[] = "0123456789abcdef";
  char text[20];
  int n = 0;
  int shift;
  int started = 0;
  text[n++] = '0';
  text[n++] = 'x';
  for (shift = 60; shift >= 0; shift -= 4) {
    unsigned nibble = (unsigned)((value >> shift) & 0xFu);
    if (nibble != 0u || started || shift == 0) {
      text[n++] = hex[nibble];
      started = 1;
    }
  }
  text[n] = '\0';
  loupe_ethosu_append(err, text);
}
