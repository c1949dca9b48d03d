#include "platforms/flash_programmer.h"

#include <stdexcept>

namespace loupe::platforms {

namespace {

std::string hexAddress(std::uint64_t address) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text;
  for (int shift = 28; shift >= 0; shift -= 4) text += kDigits[(address >> shift) & 0xF];
  return "0x" + text;
}

}  // namespace

const std::vector<std::string>& knownProgrammers() {
  static const std::vector<std::string> names = {"openocd", "st-flash", "dfu-util"};
  return names;
}

FlashCommand flashCommand(const deploy::BoardProgrammer& programmer,
                          const deploy::BoardFlash& flash, const std::filesystem::path& elf,
                          const std::string& probeSerial) {
  const std::filesystem::path bin = std::filesystem::path(elf).replace_extension(".bin");
  FlashCommand command;
  if (programmer.name == "openocd") {
    // OpenOCD reads the ELF's own addresses. Its -c takes a Tcl command,
    // where braces quote the path; a path with braces cannot be quoted so.
    const std::string path = elf.string();
    if (path.find_first_of("{}") != std::string::npos) {
      throw std::invalid_argument("OpenOCD cannot be given a firmware path with braces: " + path);
    }
    command.debianPackage = "openocd";
    command.arguments = {"openocd"};
    command.arguments.insert(command.arguments.end(), programmer.arguments.begin(),
                             programmer.arguments.end());
    if (!probeSerial.empty()) {
      if (probeSerial.find_first_of("{}\"[]$\\; ") != std::string::npos) {
        throw std::invalid_argument("the probe serial number '" + probeSerial +
                                    "' has characters no probe uses");
      }
      command.arguments.insert(command.arguments.end(), {"-c", "adapter serial " + probeSerial});
    }
    command.arguments.insert(command.arguments.end(),
                             {"-c", "program {" + path + "} verify reset exit"});
  } else if (programmer.name == "st-flash") {
    command.debianPackage = "stlink-tools";
    command.arguments = {"st-flash"};
    if (!probeSerial.empty())
      command.arguments.insert(command.arguments.end(), {"--serial", probeSerial});
    command.arguments.insert(command.arguments.end(),
                             {"--reset", "write", bin.string(), hexAddress(flash.origin)});
  } else if (programmer.name == "dfu-util") {
    // The chip's ROM bootloader in DFU mode (BOOT0 high, USB connected):
    // alternate setting 0 is the internal flash; ":leave" starts the
    // firmware when the download is done.
    command.debianPackage = "dfu-util";
    command.arguments = {"dfu-util", "-a",        "0", "-s", hexAddress(flash.origin) + ":leave",
                         "-D",       bin.string()};
    if (!probeSerial.empty())
      command.arguments.insert(command.arguments.end(), {"-S", probeSerial});
  } else {
    throw std::invalid_argument("Loupe cannot drive the programmer '" + programmer.name +
                                "' (it knows openocd, st-flash and dfu-util)");
  }
  return command;
}

std::string likelyFlashFailureCauses(const std::string& programmer) {
  if (programmer == "dfu-util") {
    return "no board in DFU mode on USB (hold BOOT0 high and reset it), a USB device the user "
           "may not open (udev rules), or a read-protected flash";
  }
  return "no probe connected or the board not powered, another program (an IDE, a debugger) "
         "holding the probe, a probe the user may not open (udev rules), a different board "
         "than the one chosen, or a read-protected (locked) flash";
}

}  // namespace loupe::platforms
