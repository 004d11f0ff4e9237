// The checks of `make docs`, run with the toolchain's interpreter so they need nothing the
// repository does not install (Debian's base image has no python3):
//   swift scripts/docs-check/main.swift symbols GRAPH_DIR ROOT
//     every public or open symbol of ours without a doc comment, as `file:line: symbol`;
//   swift scripts/docs-check/main.swift links MODULE DOCC_LOG GRAPH_DIR ROOT
//     every link that `docc convert` could not resolve, in a catalog or in a doc comment.
// Each prints its findings and exits 1 when there is any, 2 on bad input.
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("docs-check: \(message)\n".utf8))
    exit(2)
}

/// The symbol graphs in `directory`, by file name.
func graphs(in directory: String) -> [(name: String, graph: [String: Any])] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.sorted().filter { $0.hasSuffix(".symbols.json") }.map { name in
        let path = directory + "/" + name
        guard let data = FileManager.default.contents(atPath: path),
              let graph = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            fail("cannot read \(path)")
        }
        return (name, graph)
    }
}

func relative(_ path: String, to root: String) -> String {
    path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
}

/// Public symbols without a doc comment. What is skipped, and why:
/// - a symbol with no `location`: synthesized by the compiler (Equatable's `==`, Hashable's
///   `hash(into:)`, Codable's `init(from:)`/`encode(to:)`, a raw-value enum's `rawValue` and
///   `init(rawValue:)`); nobody wrote it, so nobody can document it;
/// - a symbol outside our `Sources/*.swift` (the toolchain's, a C header's);
/// - a default implementation (`defaultImplementationOf`): docc shows the requirement's text.
/// An implementation of a protocol requirement in a conforming type needs nothing either: the
/// extractor copies the requirement's comment into its `docComment`, so it is not absent.
func undocumentedSymbols(directory: String, root: String) -> [String] {
    var findings: [(file: String, line: Int, text: String)] = []
    var seen = Set<String>()
    for (_, graph) in graphs(in: directory) {
        let symbols = graph["symbols"] as? [[String: Any]] ?? []
        let relationships = graph["relationships"] as? [[String: Any]] ?? []
        let inherits = Set(relationships.compactMap { relation in
            (relation["kind"] as? String) == "defaultImplementationOf" ? relation["source"] as? String : nil
        })
        for symbol in symbols {
            let access = symbol["accessLevel"] as? String ?? ""
            guard access == "public" || access == "open", symbol["docComment"] == nil else { continue }
            let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
            guard !inherits.contains(identifier), seen.insert(identifier).inserted else { continue }
            guard let location = symbol["location"] as? [String: Any],
                  let uri = location["uri"] as? String else { continue }
            let file = uri.hasPrefix("file://") ? String(uri.dropFirst("file://".count)) : uri
            guard file.contains("/Sources/"), file.hasSuffix(".swift") else { continue }
            // The graph counts lines from 0.
            let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
            let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
            let kind = ((symbol["kind"] as? [String: Any])?["displayName"] as? String ?? "symbol").lowercased()
            findings.append((relative(file, to: root), line, "undocumented public \(kind) \(path)"))
        }
    }
    return findings.sorted { ($0.file, $0.line, $0.text) < ($1.file, $1.line, $1.text) }
        .map { "\($0.file):\($0.line): \($0.text)" }
}

/// Unresolved links in `log` (the output of `docc convert` for `module`). A link in a catalog
/// file always counts. A link in a doc comment counts unless it names a type of another of our
/// modules: docc converts one module at a time and cannot resolve those (``HookContext`` in
/// HTTPFeatures is HTTPCore's), so they are right in the source and read as code in the page.
func unresolvedLinks(module: String, log: String, directory: String, root: String) -> [String] {
    var owners: [String: Set<String>] = [:]
    for (name, graph) in graphs(in: directory) where !name.contains("@") {
        let owner = String(name.dropLast(".symbols.json".count))
        for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
            // An extension block (`swift.extension`) names the type it extends, not one of ours.
            let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
            if let path = symbol["pathComponents"] as? [String], path.count == 1, kind != "swift.extension" {
                owners[path[0], default: []].insert(owner)
            }
        }
    }
    let ourModules = Set(owners.values.flatMap { $0 })
    func isElsewhere(_ name: String) -> Bool {
        // ``HTTPCore/HookContext``: a link qualified with another module's name.
        if name != module && ourModules.contains(name) { return true }
        guard let modules = owners[name] else { return false }
        return !modules.contains(module)
    }
    guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { fail("cannot read \(log)") }
    let lines = text.components(separatedBy: "\n")
    var findings: [String] = []
    for (index, line) in lines.enumerated() where line.hasPrefix("warning: ") {
        let isMissing = line.contains("' doesn't exist at '")
        let isAmbiguous = line.contains("' is ambiguous at '")
        guard isMissing || isAmbiguous else { continue }
        // The location follows on the next line: ` --> ../File.swift:19:48-19:60`.
        var place = "\(module).docc"
        if index + 1 < lines.count, let arrow = lines[index + 1].range(of: "--> ") {
            place = String(lines[index + 1][arrow.upperBound...]).components(separatedBy: "-").first ?? place
        }
        // `warning: 'Kind' doesn't exist at '/HTTPFeatures/NetworkError'` (note the apostrophe).
        guard let at = line.range(of: "' at '", options: .backwards) ?? line.range(of: " at '", options: .backwards)
        else { continue }
        let target = String(line[line.index(line.startIndex, offsetBy: "warning: '".count)...]
            .prefix { $0 != "'" })
        let context = line[at.upperBound...].dropLast().split(separator: "/").map(String.init).dropFirst()   // drops the module
        let inCatalog = place.contains(".docc") || place.hasSuffix(".md")
        if !inCatalog && isMissing {
            let first = context.first ?? target.components(separatedBy: "/").first ?? target
            if isElsewhere(first) || isElsewhere(target.components(separatedBy: "/").first ?? target) { continue }
        }
        findings.append("\(place): \(line.dropFirst("warning: ".count))")
    }
    return findings
}

let arguments = Array(CommandLine.arguments.dropFirst())
let findings: [String]
switch arguments.first {
case "symbols" where arguments.count == 3:
    findings = undocumentedSymbols(directory: arguments[1], root: arguments[2])
case "links" where arguments.count == 5:
    findings = unresolvedLinks(module: arguments[1], log: arguments[2], directory: arguments[3], root: arguments[4])
default:
    fail("usage: main.swift symbols GRAPH_DIR ROOT | links MODULE DOCC_LOG GRAPH_DIR ROOT")
}
findings.forEach { print($0) }
if !findings.isEmpty {
    print("docs-check: \(findings.count) finding(s)")
    exit(1)
}
