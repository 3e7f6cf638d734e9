// The checks every given value passes (see option_values.hpp).
#include "option_values.hpp"

#include "usage_error.hpp"

namespace geomint {

void refuse_unusable_values(const CLI::App& command) {
    for (const CLI::Option* option : command.get_options()) {
        if (option->count() == 0 || option->get_type_size() == 0) continue;  // not given, or a flag
        for (const std::string& value : option->results()) {
            if (value.empty()) throw UsageError(option->get_name(), "empty value");
            if (value.find('\0') != std::string::npos)
                throw UsageError(option->get_name(),
                                 "the value holds a NUL character (\\u0000), which no option takes");
        }
    }
}

void refuse_empty_assignments(const std::vector<std::string>& arguments) {
    for (const std::string& argument : arguments)
        if (argument.size() > 3 && argument.compare(0, 2, "--") == 0 && argument.back() == '=' &&
            argument.find('=') == argument.size() - 1)
            throw UsageError(argument.substr(0, argument.size() - 1), "empty value");
}

void check_file_name(const std::string& path, const std::string& option) {
    if (path.empty()) throw UsageError(option, "empty file name");
    if (path.find('\0') != std::string::npos)
        throw UsageError(option, "the file name holds a NUL character (\\u0000), which no file name can");
}

}  // namespace geomint
