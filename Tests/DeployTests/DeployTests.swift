import DatabaseTestSupport
import Foundation
import OrgModel
import Testing

/// deploy/: no container engine or systemd runs here, so the files are parsed and checked for
/// consistency: well-formed YAML and unit files, names that refer to things that exist, and
/// commands whose subcommands and flags the real binary knows.
enum Deploy {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let directory = root + "/deploy"

    /// The YAML documents and unit files as JSON, read by Debian's python3-yaml and configparser.
    static func parsed() throws -> [String: Any] {
        let program = """
            import configparser, glob, json, os, sys, yaml
            root = sys.argv[1]
            out = {"compose": yaml.safe_load(open(os.path.join(root, "compose.yaml"))), "kubernetes": [], "systemd": {}}
            for path in sorted(glob.glob(os.path.join(root, "kubernetes", "*.yaml"))):
                out["kubernetes"] += [doc for doc in yaml.safe_load_all(open(path)) if doc is not None]
            for path in sorted(glob.glob(os.path.join(root, "systemd", "*.service")) + glob.glob(os.path.join(root, "systemd", "*.timer"))):
                parser = configparser.ConfigParser(strict=False, interpolation=None)
                parser.optionxform = str
                parser.read(path)
                out["systemd"][os.path.basename(path)] = {section: dict(parser[section]) for section in parser.sections()}
            json.dump(out, sys.stdout)
            """
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("deploy-\(UUID().uuidString).json").path
        defer { unlink(output) }
        let status = try run("/usr/bin/python3", ["-c", program, directory], stdout: output)
        guard status == 0, let data = FileManager.default.contents(atPath: output),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DeployFailure("python3 could not parse deploy/ (status \(status)): is python3-yaml installed?")
        }
        return object
    }

    static var executable: String {
        let bundle = Bundle.main.bundleURL
        for candidate in [bundle.appendingPathComponent("a11y-audit").path, bundle.deletingLastPathComponent().appendingPathComponent("a11y-audit").path,
                          root + "/.build/debug/a11y-audit"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return root + "/.build/debug/a11y-audit"
    }

    /// `a11y-audit help`, the source of truth for subcommands and flags.
    static func help() throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("help-\(UUID().uuidString).txt").path
        defer { unlink(output) }
        _ = try run(executable, ["help"], stdout: output)
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    static func run(_ executable: String, _ arguments: [String], stdout: String) throws -> Int32 {
        let status = ChildProcess.wait(try ChildProcess.spawn(executable, arguments, stdout: stdout))
        return (status >> 8) & 0xFF
    }

    /// Checks a command line (subcommand first) against the help text.
    static func check(_ arguments: [String], help: String, _ where_: String) {
        guard let subcommand = arguments.first else { Issue.record("\(where_): empty command"); return }
        #expect(help.contains("a11y-audit \(subcommand)"), "\(where_): unknown subcommand \(subcommand)")
        for flag in arguments where flag.hasPrefix("--") {
            #expect(help.contains("[\(flag)") || help.contains("\(flag) ") || help.contains("| \(flag)") || help.contains("(\(flag)"),
                    "\(where_): a11y-audit \(subcommand) has no flag \(flag)")
        }
    }
}

struct DeployFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func dict(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
func list(_ value: Any?) -> [Any] { value as? [Any] ?? [] }

@Suite struct DeployTests {
    @Test func kubernetesManifestsAreConsistent() throws {
        let documents = list(try Deploy.parsed()["kubernetes"]).map(dict)
        let help = try Deploy.help()
        #expect(documents.count >= 8)
        var byKind: [String: [[String: Any]]] = [:]
        for document in documents {
            let kind = document["kind"] as? String ?? ""
            let metadata = dict(document["metadata"])
            #expect(document["apiVersion"] is String && !kind.isEmpty && metadata["name"] is String, "\(document)")
            if kind != "Namespace" { #expect(metadata["namespace"] as? String == "a11y-audit", "\(kind) \(metadata["name"] ?? "")") }
            byKind[kind, default: []].append(document)
        }
        let deployments = byKind["Deployment"] ?? []
        #expect(Set(deployments.compactMap { dict($0["metadata"])["name"] as? String }) == ["a11y-audit-worker", "a11y-audit-serve"])
        var templateLabels: [[String: String]] = []
        for deployment in deployments {
            let spec = dict(deployment["spec"])
            let selector = dict(dict(spec["selector"])["matchLabels"]) as? [String: String] ?? [:]
            let labels = dict(dict(dict(spec["template"])["metadata"])["labels"]) as? [String: String] ?? [:]
            #expect(!selector.isEmpty && selector.allSatisfy { labels[$0.key] == $0.value }, "selector matches the pod template")
            templateLabels.append(labels)
        }
        for service in byKind["Service"] ?? [] {
            let selector = dict(dict(service["spec"])["selector"]) as? [String: String] ?? [:]
            #expect(templateLabels.contains { labels in selector.allSatisfy { labels[$0.key] == $0.value } }, "the service selects a deployment")
        }
        for autoscaler in byKind["HorizontalPodAutoscaler"] ?? [] {
            let target = dict(dict(autoscaler["spec"])["scaleTargetRef"])["name"] as? String
            #expect(deployments.contains { dict($0["metadata"])["name"] as? String == target })
            let metric = list(dict(autoscaler["spec"])["metrics"]).map(dict).first.map { dict(dict($0["external"])["metric"])["name"] as? String }
            #expect(metric == "a11y_audit_jobs", "scaled on the queue depth the server exports at /metrics")
        }
        #expect(byKind["CronJob"]?.count == 1)

        // Every container: args the binary knows, secrets from the documented secret and keys.
        let text = try String(contentsOfFile: Deploy.directory + "/kubernetes/a11y-audit.yaml", encoding: .utf8)
        let configMaps = Set((byKind["ConfigMap"] ?? []).compactMap { dict($0["metadata"])["name"] as? String })
        func podSpecs(_ document: [String: Any]) -> [[String: Any]] {
            let spec = dict(document["spec"])
            if let template = spec["template"] { return [dict(dict(template)["spec"])] }
            if let job = spec["jobTemplate"] { return [dict(dict(dict(dict(job)["spec"])["template"])["spec"])] }
            return []
        }
        for document in documents {
            for pod in podSpecs(document) {
                for volume in list(pod["volumes"]).map(dict) {
                    if let name = dict(volume["configMap"])["name"] as? String { #expect(configMaps.contains(name), "ConfigMap \(name)") }
                }
                for container in list(pod["containers"]).map(dict) {
                    let args = container["args"] as? [String] ?? []
                    Deploy.check(args, help: help, "kubernetes \(container["name"] ?? "")")
                    for variable in list(container["env"]).map(dict) {
                        let reference = dict(dict(variable["valueFrom"])["secretKeyRef"])
                        guard let key = reference["key"] as? String else { continue }
                        #expect(reference["name"] as? String == "a11y-audit-secrets")
                        #expect(text.contains("--from-literal=\(key)="), "secret key \(key) is documented in the header")
                    }
                }
            }
        }
        // The org config shipped in the ConfigMap is a valid one.
        let org = try #require(dict((byKind["ConfigMap"] ?? []).first?["data"])["org.json"] as? String)
        _ = try OrgConfig(data: Data(org.utf8), file: "ConfigMap a11y-audit-org")
    }

    @Test func composeServicesAndCommandsAreConsistent() throws {
        let compose = dict(try Deploy.parsed()["compose"])
        let help = try Deploy.help()
        let services = dict(compose["services"])
        #expect(Set(services.keys) == ["postgres", "migrate", "coordinator", "worker", "serve"])
        let volumes = Set(dict(compose["volumes"]).keys), secrets = Set(dict(compose["secrets"]).keys)
        for (name, value) in services {
            let service = dict(value)
            for dependency in dict(service["depends_on"]).keys { #expect(services[dependency] != nil, "\(name) depends on \(dependency)") }
            for secret in service["secrets"] as? [String] ?? [] { #expect(secrets.contains(secret)) }
            for mount in service["volumes"] as? [String] ?? [] {
                let source = String(mount.split(separator: ":")[0])
                if !source.hasPrefix(".") && !source.hasPrefix("/") { #expect(volumes.contains(source), "\(name): volume \(source)") }
            }
            if name != "postgres" { Deploy.check(service["command"] as? [String] ?? [], help: help, "compose \(name)") }
        }
    }

    @Test func systemdUnitsAndTheNginxSiteAreConsistent() throws {
        let units = dict(try Deploy.parsed()["systemd"])
        let help = try Deploy.help()
        for name in ["a11y-audit-coordinator.service", "a11y-audit-worker@.service", "a11y-audit-serve.service",
                     "a11y-audit-schedule.service", "a11y-audit-schedule.timer"] {
            #expect(units[name] != nil, "missing \(name)")
        }
        for (name, value) in units where name.hasSuffix(".service") {
            let service = dict(dict(value)["Service"])
            #expect(service["EnvironmentFile"] as? String == "/etc/a11y-audit/env", "\(name)")
            for key in ["ExecStart", "ExecStartPre"] {
                guard let line = service[key] as? String else { continue }
                let words = line.split(separator: " ").map(String.init)
                #expect(words.first == "/usr/local/bin/a11y-audit", "\(name): \(key)")
                Deploy.check(Array(words.dropFirst()), help: help, "\(name) \(key)")
            }
        }
        let timer = dict(dict(units["a11y-audit-schedule.timer"])["Timer"])
        #expect(units[timer["Unit"] as? String ?? ""] != nil, "the timer starts an existing unit")
        // The worker unit is a template, so N instances run side by side.
        #expect((dict(dict(units["a11y-audit-worker@.service"])["Service"])["ExecStart"] as? String)?.contains("%i") == true)
        // nginx proxies to the port the server unit listens on, and the paths it serves.
        let nginx = try String(contentsOfFile: Deploy.directory + "/nginx/a11y-audit.conf", encoding: .utf8)
        let serve = dict(dict(units["a11y-audit-serve.service"])["Service"])["ExecStart"] as? String ?? ""
        #expect(serve.contains("--port 8080") && nginx.contains("proxy_pass http://127.0.0.1:8080;"))
        #expect(nginx.contains("location /hooks/") && nginx.contains("location /api/") && nginx.contains("root /var/lib/a11y-audit/site;"))
        #expect(serve.contains("--site /var/lib/a11y-audit/site"))
    }
}
