// libFuzzer target: a sweep file (arrays, tables, escapes, any key) read by parse_sweep_text and
// turned into a command's arguments by sweep_arguments (src/sweep_arguments.hpp), which the
// command then parses. A refusal is a UsageError naming the file; an accepted file's arguments
// must give every option exactly the value its key holds, once, and every flag its boolean: no
// value is ever absorbed by another option, none is empty, none holds a NUL.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <map>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_sweep_input.hpp"
#include "option_values.hpp"
#include "sweep_arguments.hpp"
#include "sweep_file.hpp"
#include "usage_error.hpp"

namespace {

using geomint::SweepFile;
using geomint::SweepSetting;
using geomint::UsageError;
using geomint_fuzz::names_option;

// A command shaped as geomint's families: value options, flags, and a portrait subcommand that
// takes the family's options and its own (written in the [portrait] table).
struct Commands {
    CLI::App root{"geomint", "geomint"};
    std::map<std::string, std::string> values;
    std::map<std::string, bool> flags;

    void add_family(CLI::App& command, bool portrait) {
        for (const char* name : {"out", "dt", "t-end", "steps", "q0", "p0", "scheme", "init", "chunk-size"})
            command.add_option(std::string("--") + name, values[std::string(portrait ? "p." : "") + name]);
        for (const char* name : {"exact", "quiet"})
            command.add_flag(std::string("--") + name, flags[std::string(portrait ? "p." : "") + name]);
        command.add_flag("--print-config", flags[portrait ? "p.print-config" : "print-config"]);
        command.add_flag("--resume", flags[portrait ? "p.resume" : "resume"]);
    }
    Commands() {
        add_family(*root.add_subcommand("pendulum"), false);
        CLI::App* portrait = root.add_subcommand("portrait");
        CLI::App* family = portrait->add_subcommand("pendulum");
        add_family(*family, true);
        for (const char* name : {"width", "colour", "energy-range"})
            family->add_option(std::string("--") + name, values[std::string("p.") + name]);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::optional<SweepFile> read = geomint_fuzz::read_sweep_input(text);
    if (!read) return 0;
    const SweepFile& file = *read;
    Commands commands;
    std::vector<std::string> arguments;
    const CLI::App* command = nullptr;
    try {
        command = &geomint::sweep_command(file, commands.root);
        arguments = geomint::sweep_arguments(file, commands.root);
    } catch (const UsageError& e) {
        FUZZ_CHECK(names_option(e.what(), "fuzz.toml"), text);
        return 0;
    }
    // Every argument is "--key=value" with a value, or a flag.
    for (const std::string& argument : arguments) {
        FUZZ_CHECK(argument.find('\0') == std::string::npos, text);
        FUZZ_CHECK(argument.empty() || argument.back() != '=' || argument.find('=') != argument.size() - 1, text);
    }
    std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());  // CLI11 takes them last first
    try {
        commands.root.parse(reversed);
        geomint::refuse_unusable_values(*command);
    } catch (const CLI::ParseError& e) {
        // A key given twice in the file is impossible (TOML refuses it); anything else must parse.
        FUZZ_CHECK(false, text + "\n  parse error: " + e.what());
    } catch (const UsageError& e) {
        FUZZ_CHECK(false, text + "\n  refused after sweep_arguments accepted it: " + e.what());
    }
    const std::string prefix = file.portrait ? "p." : "";
    for (const SweepSetting& s : file.settings) {
        const CLI::Option* option = command->get_option_no_throw("--" + s.key);
        FUZZ_CHECK(option != nullptr, text);
        if (s.kind == SweepSetting::Kind::boolean) {
            FUZZ_CHECK(commands.flags[prefix + s.key] == (s.text == "true"), text + "\n  flag " + s.key);
        } else {
            FUZZ_CHECK(option->results().size() == 1, text + "\n  option " + s.key);
            FUZZ_CHECK(option->results().front() == s.text, text + "\n  option " + s.key + " = " + s.text);
            FUZZ_CHECK(commands.values[prefix + s.key] == s.text, text + "\n  option " + s.key);
        }
    }
    return 0;
}
