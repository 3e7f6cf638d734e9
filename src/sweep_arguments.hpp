// A sweep file and the command line are one interface: a file's keys are the long options of the
// command it names, without the dashes, so the file becomes the argument list of that command and
// goes through the very parser the command line does; and any parsed command prints back as a file.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "sweep_file.hpp"
#include "usage_error.hpp"

namespace geomint {

// The command `file` stands for among root's: the family command it names, or with a [portrait]
// table that family's subcommand of `portrait`. Throws UsageError "FILE:LINE: command: ..." for a
// command that is neither.
const CLI::App& sweep_command(const SweepFile& file, const CLI::App& root);

// The arguments of `geomint COMMAND ...` (`geomint portrait COMMAND ...` with a [portrait] table)
// that `file` stands for ("pendulum", "--q0=1", "--exact"),
// for `root` (the geomint app): the command must be one of root's family commands (those with
// --print-config). Throws UsageError "FILE:LINE: KEY: ..." for an unknown key or a value of the
// wrong type (a flag takes true or false, an option a string, a number or an array of numbers), and
// for a key out of its place: a portrait's own options in [portrait], the family's above it.
std::vector<std::string> sweep_arguments(const SweepFile& file, const CLI::App& root);

// An error message about the command's options, as it reads for the file: "--q0: bad" becomes
// "FILE:LINE: q0: bad" (or "FILE: q0: bad" when the key is not in the file; a key of the
// [portrait] table reads "portrait.width"), and other options it mentions lose their dashes.
UsageError locate_in_file(const SweepFile& file, const CLI::App& command, const std::string& message);

// The parsed `command` as a sweep file: every option in the order of --help, as given or else its
// default (`implied` supplies defaults that depend on other options, by key), flags as true or
// false. Options never given and without a default are left out. For a subcommand of `portrait`,
// the portrait's own options go in a [portrait] table. Throws UsageError naming
// --print-config when a value cannot be written (it would not read back the same).
std::string canonical_configuration(const CLI::App& command, const std::map<std::string, std::string>& implied);

}  // namespace geomint
