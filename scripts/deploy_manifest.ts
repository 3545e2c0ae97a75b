// The Kubernetes manifest of docs/deploy.md, checked as a user would check it before applying it:
//
//   tsx scripts/deploy_manifest.ts                 validates it; exits 1 with the reasons
//   tsx scripts/deploy_manifest.ts --docker PORT   prints, one per line, the `docker run` flags that give the
//                                                  pod's container the same bounds, then `--`, then its args
//                                                  with the port put in (scripts/docker_http.sh runs them)
//
// Validation is the Kubernetes OpenAPI schema as kubernetes-models compiles it (types, required fields,
// formats such as quantities; unknown fields are not caught, the schema is not strict), and the promises
// the page makes of the pod (test/deploy_manifest.test.ts).
import * as fs from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Pod } from "kubernetes-models/v1/Pod";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { parseAllDocuments } from "yaml";

const DEPLOY_PAGE = fileURLToPath(new URL("../docs/deploy.md", import.meta.url));

/** One object of the manifest, as parsed. */
// deno-lint-ignore no-explicit-any
export type ManifestObject = Record<string, any>;

/**
 * The objects of the page's Kubernetes manifest: the ```yaml block holding a `kind: Pod`.
 *
 * @param page The page's text. @default docs/deploy.md
 * @returns Its objects in order.
 * @throws {Error} When the page holds no such block, or the block is not YAML.
 */
export function readDeployManifest(page = fs.readFileSync(DEPLOY_PAGE, "utf8")): ManifestObject[] {
  const block = [...page.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((match) => match[1])
    .find((text) => /^kind: Pod$/m.test(text));
  if (block === undefined) throw new Error("docs/deploy.md holds no ```yaml block with a Pod");
  return parseAllDocuments(block).map((document) => {
    if (document.errors.length > 0) throw new Error(`the manifest is not YAML: ${document.errors[0].message}`);
    return document.toJS() as ManifestObject;
  });
}

const MODELS: Record<string, new (data: ManifestObject) => { validate(): void }> = {
  Secret: Secret as never,
  Pod: Pod as never,
  Service: Service as never,
};

/**
 * What is wrong with the manifest: each object against its kind's schema, then the page's promises
 * (no service-account token, a non-root read-only container with no capabilities, resource limits,
 * a readiness probe on `/healthz`, the token from the Secret, a Service that selects the pod).
 *
 * @param objects The manifest's objects.
 * @returns The problems; none when it holds.
 */
export function manifestProblems(objects: readonly ManifestObject[]): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const Model = MODELS[object?.kind];
    if (object?.apiVersion !== "v1" || Model === undefined) {
      problems.push(`an object of kind ${object?.kind} (${object?.apiVersion}) is not one this check knows`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problems.push(`${object.kind} ${object.metadata?.name}: ${(error as Error).message}`);
    }
  }
  const pod = objects.find((object) => object.kind === "Pod");
  const secret = objects.find((object) => object.kind === "Secret");
  const service = objects.find((object) => object.kind === "Service");
  if (pod === undefined || secret === undefined || service === undefined) {
    return [...problems, "the manifest must hold a Secret, a Pod and a Service"];
  }
  const spec = pod.spec ?? {};
  const container = spec.containers?.[0] ?? {};
  const promise = (held: boolean, what: string) => held || problems.push(`the Pod does not hold: ${what}`);
  promise(spec.automountServiceAccountToken === false, "automountServiceAccountToken: false");
  promise(spec.securityContext?.runAsNonRoot === true, "runAsNonRoot: true");
  promise(spec.securityContext?.runAsUser === 10001, "runAsUser: 10001 (the image's user)");
  promise(container.securityContext?.readOnlyRootFilesystem === true, "readOnlyRootFilesystem: true");
  promise(container.securityContext?.allowPrivilegeEscalation === false, "allowPrivilegeEscalation: false");
  promise(
    JSON.stringify(container.securityContext?.capabilities?.drop) === '["ALL"]',
    "capabilities dropped: ALL",
  );
  promise(
    ["cpu", "memory"].every((name) => container.resources?.limits?.[name] !== undefined),
    "cpu and memory limits",
  );
  promise(container.readinessProbe?.httpGet?.path === "/healthz", "a readiness probe on /healthz");
  const tokenRef = container.env?.find((entry: ManifestObject) => entry.name === "PADDOCK_MCP_TOKEN")
    ?.valueFrom?.secretKeyRef;
  promise(
    tokenRef?.name === secret.metadata?.name && secret.stringData?.[tokenRef?.key] !== undefined,
    "PADDOCK_MCP_TOKEN from the Secret's key",
  );
  const labels = pod.metadata?.labels ?? {};
  promise(
    Object.entries(service.spec?.selector ?? {}).every(([key, value]) => labels[key] === value) &&
      Object.keys(service.spec?.selector ?? {}).length > 0,
    "labels the Service selects",
  );
  const args: unknown[] = container.args ?? [];
  const mounts: string[] = (container.volumeMounts ?? []).map((mount: ManifestObject) => mount.mountPath);
  const root = args[args.indexOf("--root") + 1];
  promise(args.includes("--root") && mounts.includes(root as string), "--root on a mounted volume");
  promise(mounts.includes("/tmp"), "a writable /tmp (the image's HOME)");
  return problems;
}

/**
 * `docker run` flags giving a container the Pod's bounds (user, read-only root, no capabilities, no
 * privilege escalation, its cpu and memory limits, `/tmp` as a tmpfs of the volume's size), and the
 * container's args with `--http`'s port replaced by `port`.
 *
 * @param objects The manifest's objects.
 * @param port The port to listen on.
 * @returns The flags, and the args.
 */
export function dockerRunOf(objects: readonly ManifestObject[], port: number): { flags: string[]; args: string[] } {
  const pod = objects.find((object) => object.kind === "Pod")!;
  const container = pod.spec.containers[0];
  const context = pod.spec.securityContext;
  const tmp = pod.spec.volumes.find((volume: ManifestObject) =>
    volume.name === container.volumeMounts.find((mount: ManifestObject) => mount.mountPath === "/tmp").name
  );
  const flags = [
    "--user",
    `${context.runAsUser}:${context.runAsGroup}`,
    ...(container.securityContext.readOnlyRootFilesystem ? ["--read-only"] : []),
    "--cap-drop",
    "ALL",
    ...(container.securityContext.allowPrivilegeEscalation === false ? ["--security-opt", "no-new-privileges"] : []),
    "--cpus",
    String(container.resources.limits.cpu),
    "--memory",
    String(container.resources.limits.memory).replace(/i$/, "").toLowerCase(),
    "--tmpfs",
    `/tmp:size=${String(tmp.emptyDir.sizeLimit).replace(/i$/, "").toLowerCase()}`,
  ];
  const args = (container.args as string[]).map((arg, index, all) =>
    all[index - 1] === "--http" ? arg.replace(/:\d+$/, `:${port}`) : arg
  );
  return { flags, args };
}

if (process.argv[1]?.endsWith("deploy_manifest.ts")) {
  const objects = readDeployManifest();
  const problems = manifestProblems(objects);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`docs/deploy.md's manifest: ${problem}`);
    process.exit(1);
  }
  const at = process.argv.indexOf("--docker");
  if (at >= 0) {
    const { flags, args } = dockerRunOf(objects, Number(process.argv[at + 1]));
    console.log([...flags, "--", ...args].join("\n"));
  } else console.log(`docs/deploy.md's manifest: ${objects.length} objects valid, every promise held`);
}
