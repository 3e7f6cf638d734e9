// Sweep files to argument lists and back (see sweep_arguments.hpp).
#include "sweep_arguments.hpp"

#include <algorithm>
#include <cctype>

#include "usage_error.hpp"

namespace geomint {

namespace {

// Keys a file may not use: they stop a run, or continue one, rather than describe one.
bool reserved(const std::string& key) { return key == "help" || key == "print-config" || key == "resume"; }

bool is_family(const CLI::App& command) { return command.get_option_no_throw("--print-config") != nullptr; }

std::string key_of(const CLI::Option& option) {
    const std::string name = option.get_name();
    return name.rfind("--", 0) == 0 ? name.substr(2) : name;
}

bool is_option_name(const CLI::App& command, const std::string& key) {
    return !key.empty() && !reserved(key) && command.get_option_no_throw("--" + key) != nullptr;
}

// For a subcommand of `portrait`, the family command of the same name, whose options are a
// portrait file's top-level keys; nullptr for any other command.
const CLI::App* family_of_portrait(const CLI::App& command) {
    const CLI::App* parent = command.get_parent();
    if (parent == nullptr || parent->get_name() != "portrait" || parent->get_parent() == nullptr) return nullptr;
    for (const CLI::App* sub : parent->get_parent()->get_subcommands([](const CLI::App*) { return true; }))
        if (sub->get_name() == command.get_name()) return sub;
    return nullptr;
}

// Whether option `key` of `command` is written in the [portrait] table: an option of a portrait
// command that its family command does not have (--width, --colour, ...).
bool in_portrait_table(const CLI::App& command, const std::string& key) {
    const CLI::App* family = family_of_portrait(command);
    return family != nullptr && family->get_option_no_throw("--" + key) == nullptr;
}

// How messages name a key: "width" in the [portrait] table is "portrait.width", as TOML's dotted
// keys would name it.
std::string shown_key(const std::string& key, bool in_portrait) { return in_portrait ? "portrait." + key : key; }

const CLI::App* subcommand_named(const CLI::App& parent, const std::string& name) {
    for (const CLI::App* sub : parent.get_subcommands([](const CLI::App*) { return true; }))
        if (sub->get_name() == name) return sub;
    return nullptr;
}

}  // namespace

const CLI::App& sweep_command(const SweepFile& file, const CLI::App& root) {
    const CLI::App* command = nullptr;
    std::string valid;
    for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; })) {
        if (!is_family(*sub)) continue;
        valid += (valid.empty() ? "" : ", ") + sub->get_name();
        if (sub->get_name() == file.command) command = sub;
    }
    const std::string command_at = file.source + ":" + std::to_string(file.command_line) + ": command";
    if (command == nullptr)
        throw UsageError(command_at, "unknown command '" + file.command + "' (valid: " + valid + ")");
    if (!file.portrait) return *command;
    // A [portrait] table: the family's subcommand of `portrait`, which takes the family's options too.
    const CLI::App* portrait = subcommand_named(root, "portrait");
    const CLI::App* portrait_command = portrait != nullptr ? subcommand_named(*portrait, file.command) : nullptr;
    if (portrait_command == nullptr) throw UsageError(command_at, "geomint has no portrait of '" + file.command + "'");
    return *portrait_command;
}

std::vector<std::string> sweep_arguments(const SweepFile& file, const CLI::App& root) {
    const CLI::App* command = &sweep_command(file, root);
    std::vector<std::string> arguments{file.command};
    if (file.portrait) arguments.insert(arguments.begin(), "portrait");
    const std::string shown_command = file.portrait ? "portrait " + file.command : file.command;
    for (const SweepSetting& s : file.settings) {
        const std::string where = file.source + ":" + std::to_string(s.line) + ": " + shown_key(s.key, s.in_portrait);
        if (!is_option_name(*command, s.key))
            throw UsageError(where, "unknown key (not an option of geomint " + shown_command + "; see its --help)");
        // Each key in its place, so that a file reads as the command line's two parts: the family's
        // ensemble at the top, the portrait's own options in [portrait].
        if (in_portrait_table(*command, s.key) != s.in_portrait)
            throw UsageError(where, s.in_portrait ? "not a portrait option: write it above the [portrait] table"
                                                  : "a portrait option: write it in the [portrait] table");
        const bool flag = command->get_option("--" + s.key)->get_expected_max() == 0;
        if (flag) {
            if (s.kind != SweepSetting::Kind::boolean)
                throw UsageError(where, "must be true or false, not " +
                                            (s.kind == SweepSetting::Kind::other ? s.text : "'" + s.text + "'"));
            if (s.text == "true") arguments.push_back("--" + s.key);
        } else if (s.kind == SweepSetting::Kind::boolean || s.kind == SweepSetting::Kind::other) {
            throw UsageError(where, "must be a string, a number or an array of numbers, not " +
                                        (s.kind == SweepSetting::Kind::other ? s.text : "a boolean"));
        } else if (s.text.empty()) {
            // Never "--key=": the parser would take the next argument as its value.
            throw UsageError(where, s.kind == SweepSetting::Kind::list
                                        ? "an empty array; give at least one number"
                                        : "an empty string; give a value or leave the key out");
        } else if (s.text.find('\0') != std::string::npos) {
            throw UsageError(where, "the value holds a NUL character (\\u0000), which no option takes");
        } else {
            // --key=value: a value starting with '-' stays a value.
            arguments.push_back("--" + s.key + "=" + s.text);
        }
    }
    return arguments;
}

UsageError locate_in_file(const SweepFile& file, const CLI::App& command, const std::string& message) {
    // Every --option the message names loses its dashes.
    std::string text;
    std::size_t i = 0;
    while (i < message.size()) {
        std::size_t end = i;
        if (message.compare(i, 2, "--") == 0) {
            end = i + 2;
            while (end < message.size() &&
                   (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '-'))
                ++end;
            if (is_option_name(command, message.substr(i + 2, end - i - 2))) {
                text += message.substr(i + 2, end - i - 2);
                i = end;
                continue;
            }
        }
        text += message[i++];
    }
    // The key it starts with ("q0" also for "q0 COUNT: ..."), with its line when the file has it.
    const std::size_t colon = text.find(": ");
    if (colon == std::string::npos) return UsageError(file.source, text);
    const std::string first = text.substr(0, colon), rest = text.substr(colon + 2);
    const std::size_t key_end = first.find_first_of(" /");
    const std::string key = first.substr(0, key_end);
    const std::string tail = first.substr(key.size());
    for (const SweepSetting& s : file.settings)
        if (s.key == key)
            return UsageError(file.source + ":" + std::to_string(s.line) + ": " + shown_key(key, s.in_portrait) + tail,
                              rest);
    return UsageError(file.source + ": " + shown_key(key, in_portrait_table(command, key)) + tail, rest);
}

std::string canonical_configuration(const CLI::App& command, const std::map<std::string, std::string>& implied) {
    std::vector<SweepEntry> entries;
    for (const CLI::Option* option : command.get_options()) {
        const std::string key = key_of(*option);
        if (!is_option_name(command, key)) continue;
        const bool table = in_portrait_table(command, key);
        if (option->get_expected_max() == 0) {  // a flag
            entries.push_back({key, option->count() > 0 && option->as<bool>() ? "true" : "false", true, table});
            continue;
        }
        const auto found = implied.find(key);
        if (option->count() > 0)
            entries.push_back({key, option->as<std::string>(), false, table});
        else if (found != implied.end())
            entries.push_back({key, found->second, false, table});
        else if (!option->get_default_str().empty())
            entries.push_back({key, option->get_default_str(), false, table});
    }
    const bool portrait = family_of_portrait(command) != nullptr;
    const std::string text = render_sweep_file(command.get_name(), entries, portrait);
    // The file lists the top-level keys first, then the table's.
    std::stable_partition(entries.begin(), entries.end(), [](const SweepEntry& e) { return !e.in_portrait; });
    // Written values must read back as given; a text that is not UTF-8 cannot be TOML.
    try {
        const SweepFile back = parse_sweep_text(text, "configuration");
        bool same = back.settings.size() == entries.size() && back.portrait == portrait;
        for (std::size_t k = 0; same && k < entries.size(); ++k)
            same = back.settings[k].key == entries[k].key && back.settings[k].text == entries[k].text &&
                   back.settings[k].in_portrait == entries[k].in_portrait;
        if (same) return text;
    } catch (const UsageError&) {
    }
    throw UsageError("--print-config",
                     "the run cannot be written as a sweep file (sweep files are ASCII: is a value non-ASCII?)");
}

}  // namespace geomint
