// The serial device transport: see tty_transport.h.
#include "tty_transport.h"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <utility>

#include "fd_io.h"

namespace loupe::host {
namespace {

// The rates termios names, from the common UART ones up.
constexpr std::pair<unsigned, speed_t> kBaudRates[] = {
    {1200, B1200},       {2400, B2400},       {4800, B4800},       {9600, B9600},
    {19200, B19200},     {38400, B38400},     {57600, B57600},     {115200, B115200},
    {230400, B230400},   {460800, B460800},   {500000, B500000},   {576000, B576000},
    {921600, B921600},   {1000000, B1000000}, {1152000, B1152000}, {1500000, B1500000},
    {2000000, B2000000}, {3000000, B3000000}, {4000000, B4000000},
};

std::string openHint(int error) {
  switch (error) {
    case EACCES:
      return " (add yourself to the dialout group)";
    case ENOENT:
    case ENODEV:
    case ENXIO:
      return " (is the board plugged in?)";
    case EBUSY:
      return " (another program is using it)";
    default:
      return {};
  }
}

}  // namespace

std::vector<unsigned> TtyTransport::supportedBaudRates() {
  std::vector<unsigned> rates;
  for (const auto& [rate, speed] : kBaudRates) rates.push_back(rate);
  return rates;
}

TtyTransport::TtyTransport(std::string device, unsigned baud)
    : device_(std::move(device)), baud_(baud) {
  speed_t speed = B0;
  for (const auto& [rate, code] : kBaudRates) {
    if (rate == baud) speed = code;
  }
  if (speed == B0) {
    std::string rates;
    for (unsigned rate : supportedBaudRates())
      rates += (rates.empty() ? "" : ", ") + std::to_string(rate);
    throw std::invalid_argument("unsupported baud rate " + std::to_string(baud) + " for " +
                                device_ + " (supported: " + rates + ")");
  }
  fd_ = ::open(device_.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    const int error = errno;
    throw std::runtime_error("cannot open " + device_ + ": " + errnoText(error) + openHint(error));
  }
  termios settings{};
  if (::tcgetattr(fd_, &settings) != 0) {
    const int error = errno;
    close();
    throw std::runtime_error("cannot use " + device_ + " as a serial port: " + errnoText(error));
  }
  ::cfmakeraw(&settings);
  settings.c_cflag &= ~static_cast<tcflag_t>(PARENB | CSTOPB | CSIZE | CRTSCTS);
  settings.c_cflag |= CS8 | CLOCAL | CREAD;
  settings.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
  settings.c_cc[VMIN] = 0;
  settings.c_cc[VTIME] = 0;
  if (::cfsetispeed(&settings, speed) != 0 || ::cfsetospeed(&settings, speed) != 0 ||
      ::tcsetattr(fd_, TCSANOW, &settings) != 0) {
    const int error = errno;
    close();
    throw std::runtime_error("cannot set " + device_ + " to " + std::to_string(baud) +
                             " baud 8N1: " + errnoText(error));
  }
  ::tcflush(fd_, TCIFLUSH);  // bytes from before we opened belong to nobody
}

TtyTransport::~TtyTransport() {
  close();
}

std::string TtyTransport::describe() const {
  return device_ + " at " + std::to_string(baud_) + " baud";
}

void TtyTransport::write(std::span<const std::uint8_t> bytes) {
  if (fd_ < 0) throw TransportClosed(describe() + " is closed");
  const int error = writeAll(fd_, bytes, kWriteStallTimeout);
  if (error == ETIMEDOUT) {
    throw TransportClosed(describe() + " accepted no bytes for " +
                          std::to_string(kWriteStallTimeout.count()) + " ms");
  }
  if (error != 0) throw TransportClosed("writing to " + describe() + ": " + errnoText(error));
}

std::size_t TtyTransport::read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) {
  if (fd_ < 0) throw TransportClosed(describe() + " is closed");
  const FdReadResult result = readWithPoll(fd_, buffer, timeout);
  if (result.endOfStream) throw TransportClosed(device_ + " hung up (was the board unplugged?)");
  if (result.error != 0) {
    throw TransportClosed("reading from " + describe() + ": " + errnoText(result.error));
  }
  return result.bytes;
}

void TtyTransport::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace loupe::host
