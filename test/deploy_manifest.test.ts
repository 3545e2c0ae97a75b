// docs/deploy.md's Kubernetes manifest against the Kubernetes schema (kubernetes-models) and the page's
// promises; each promise is shown to be checked by a manifest that breaks it.
import { describe, expect, it } from "vitest";
import { dockerRunOf, type ManifestObject, manifestProblems, readDeployManifest } from "../scripts/deploy_manifest.ts";

const objects = readDeployManifest();
const pod = (copy: ManifestObject[]) => copy.find((object) => object.kind === "Pod")!;

/** What each broken copy must be refused for (the start of the problem's text). */
const BREAKS: { name: string; change: (copy: ManifestObject[]) => void; problem: string }[] = [
  {
    name: "a port as a string",
    change: (copy) => (pod(copy).spec.containers[0].ports[0].containerPort = "8080"),
    problem: "Pod paddock-mcp-session-1: data/spec/containers/0/ports/0/containerPort must be integer",
  },
  {
    name: "a memory limit that is no quantity",
    change: (copy) => (pod(copy).spec.containers[0].resources.limits.memory = "lots"),
    problem: "Pod paddock-mcp-session-1: data/spec/containers/0/resources/limits/memory must be number",
  },
  {
    name: "a container without a name",
    change: (copy) => delete pod(copy).spec.containers[0].name,
    problem: "Pod paddock-mcp-session-1: data/spec/containers/0 must have required property name",
  },
  {
    name: "the service-account token mounted",
    change: (copy) => delete pod(copy).spec.automountServiceAccountToken,
    problem: "the Pod does not hold: automountServiceAccountToken: false",
  },
  {
    name: "root",
    change: (copy) => (pod(copy).spec.securityContext.runAsNonRoot = false),
    problem: "the Pod does not hold: runAsNonRoot: true",
  },
  {
    name: "a writable root filesystem",
    change: (copy) => (pod(copy).spec.containers[0].securityContext.readOnlyRootFilesystem = false),
    problem: "the Pod does not hold: readOnlyRootFilesystem: true",
  },
  {
    name: "a capability kept",
    change: (copy) => (pod(copy).spec.containers[0].securityContext.capabilities.drop = ["NET_RAW"]),
    problem: "the Pod does not hold: capabilities dropped: ALL",
  },
  {
    name: "no memory limit",
    change: (copy) => delete pod(copy).spec.containers[0].resources.limits.memory,
    problem: "the Pod does not hold: cpu and memory limits",
  },
  {
    name: "a readiness probe elsewhere",
    change: (copy) => (pod(copy).spec.containers[0].readinessProbe.httpGet.path = "/mcp"),
    problem: "the Pod does not hold: a readiness probe on /healthz",
  },
  {
    name: "the token from another Secret",
    change: (copy) => (pod(copy).spec.containers[0].env[0].valueFrom.secretKeyRef.name = "other"),
    problem: "the Pod does not hold: PADDOCK_MCP_TOKEN from the Secret's key",
  },
  {
    name: "a Service selecting other pods",
    change: (copy) => (copy.find((object) => object.kind === "Service")!.spec.selector.session = "2"),
    problem: "the Pod does not hold: labels the Service selects",
  },
  {
    name: "the root on no volume",
    change: (copy) => (pod(copy).spec.containers[0].volumeMounts[0].mountPath = "/data"),
    problem: "the Pod does not hold: --root on a mounted volume",
  },
];

describe("docs/deploy.md's Kubernetes manifest", () => {
  it("is a Secret, a Pod and a Service, valid against the Kubernetes schema, and holds every promise", () => {
    expect(objects.map((object) => object.kind)).toEqual(["Secret", "Pod", "Service"]);
    expect(manifestProblems(objects)).toEqual([]);
  });

  it.each(BREAKS)("is refused with $name", ({ change, problem }) => {
    const copy = structuredClone(objects);
    change(copy);
    const problems = manifestProblems(copy);
    expect(problems.length).toBe(1);
    expect(problems[0].slice(0, problem.length)).toBe(problem);
  });

  it("gives docker run the pod's bounds and the container's own args", () => {
    expect(dockerRunOf(objects, 41234)).toEqual({
      flags: [
        "--user",
        "10001:10001",
        "--read-only",
        "--cap-drop",
        "ALL",
        "--security-opt",
        "no-new-privileges",
        "--cpus",
        "1",
        "--memory",
        "1g",
        "--tmpfs",
        "/tmp:size=64m",
      ],
      args: [
        "mcp",
        "--http",
        "0.0.0.0:41234",
        "--allow-remote",
        "--root",
        "/workspace",
        "--node-process",
        "off",
        "--allowed-host",
        "paddock-mcp-session-1.example.com",
      ],
    });
  });
});
