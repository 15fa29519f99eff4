package convert

// explanations say, for every code of Registry, when the converter reports
// it and what to do about it (conversion spec §14 and the sections it
// points to). They are Markdown, for the generated reference. A test fails
// when a code has none, so a new code cannot ship undocumented.
var explanations = map[Code]explanation{
	// Errors.
	"C101": {
		"The document is an `apiextensions.crossplane.io` Composition of a version other than `v1`. Only `v1` Compositions are converted.",
		"Write the Composition as `apiextensions.crossplane.io/v1` (`kubectl get composition NAME -o yaml` returns it in that version) and convert again.",
	},
	"C102": {
		"The file, or one document in it, is not YAML that kubectl can read: usually a Helm or Go template with `{{ … }}` outside a block scalar. `migrate` skips such files and reports them; `convert` refuses them.",
		"Render the template first (`helm template …`) and convert the rendered Compositions, then carry the change back into the template by hand; or exclude the file.",
	},
	"C103": {
		"`spec.mode` is neither `Resources` nor `Pipeline`. Crossplane rejects such a Composition too.",
		"Correct the value.",
	},
	"C104": {
		"The Composition is in Resources mode (`spec.mode` absent or `Resources`) but also has `spec.pipeline` steps. Crossplane ignored the steps in that mode, so it is unclear whether they should be kept, run before patch-and-transform, or dropped.",
		"Delete the steps if nobody uses them, or set `mode: Pipeline` and move the resources into a patch-and-transform step by hand.",
	},
	"C106": {
		"A `functionRef.name` the converter would write is not a valid DNS-1123 subdomain. It comes from a flag, a Function manifest in the input or tree, or a Configuration dependency.",
		"Pass the `metadata.name` of the installed Function with `--function-patch-and-transform-ref` or `--function-environment-configs-ref`.",
	},
	"C107": {
		"A Resources-mode Composition has no `spec`, or its `spec.resources` is not a list. (A Composition with an empty or absent resources list is converted, with C214.)",
		"Correct the Composition, or delete it if it is unused.",
	},
	"C108": {
		"Two resource templates have the same `name`. Crossplane's webhook rejected this; the function would accept it and silently keep only the later template.",
		"Rename one of the templates. If XRs already exist, rename the one whose composed resources you can afford to have replaced.",
	},
	"C109": {
		"Some resource templates are named and others are not. Crossplane rejected this mix.",
		"Name every template, or none (the converter then names them all, with C204).",
	},
	"C110": {
		"A resource template has no `base`, or its `base` is not a valid object. Crossplane required a base; in the function a template without a base means \"patch a resource an earlier step produced\", which is not what the Composition meant.",
		"Add the `base` (apiVersion, kind and the fields the resource needs).",
	},
	"C111": {
		"`spec.environment` is malformed: a Reference without `ref.name`, a Selector without `matchLabels`, `maxMatch`/`minMatch` in Single mode, a label matcher without `valueFromFieldPath` or `value`, or a field of the wrong type. Crossplane rejected or failed on the same input.",
		"Correct the field the message names.",
	},
	"C112": {
		"An environment patch (`spec.environment.patches`) has a type other than `FromCompositeFieldPath`, `ToCompositeFieldPath`, `CombineFromComposite` or `CombineToComposite`, the four Crossplane accepted there.",
		"Use one of those four types.",
	},
	"C113": {
		"`--move-env-patches` was given for a Pipeline-mode Composition whose pipeline has no patch-and-transform step, or more than one, so there is no single step to move the environment patches into.",
		"Convert without `--move-env-patches` (the ignored patches are then dropped, C207), or move them into the right step by hand.",
	},
	"C114": {
		"A patch inside a `patchSets` entry is itself of type `PatchSet`. Patch sets cannot nest.",
		"Inline the nested set's patches.",
	},
	"C115": {
		"A patch has an unknown `type`.",
		"Correct the type; the message lists the ones allowed at that place.",
	},
	"C116": {
		"A patch lacks a field its type requires: `fromFieldPath` for the field-path types; `toFieldPath` and a `combine` with `strategy: string`, a `string.fmt` and at least one variable with `fromFieldPath` for the Combine types; `patchSetName` for `PatchSet`. The converter never invents these.",
		"Add the field. (A missing `toFieldPath` on a field-path patch is fine: both engines use `fromFieldPath`.)",
	},
	"C117": {
		"A `PatchSet` patch names a patch set that does not exist.",
		"Correct `patchSetName`, or add the patch set.",
	},
	"C118": {
		"A patch `policy` is not an object, `policy.fromFieldPath` is not exactly `Optional` or `Required`, or `policy.toFieldPath` has an unknown value. Crossplane's schema rejected these.",
		"Fix the value. `--fix-enum-case` rewrites values that differ only in case (`optional` → `Optional`, reported as C312).",
	},
	"C119": {
		"A transform has no `type` and it cannot be inferred, because it has no configuration block or several (`math`, `map`, `match`, `string`, `convert`), or its `type` is unknown.",
		"Set `type`.",
	},
	"C120": {
		"A transform's `type` names a block that is missing or not an object (`type: map` without `map`, for example).",
		"Add the block, or correct the type.",
	},
	"C121": {
		"A `math` or `string` transform has no sub-type (`math.type`, `string.type`) and several fields it could be inferred from, an unknown sub-type, or nothing to do.",
		"Set `math.type` or `string.type` explicitly.",
	},
	"C122": {
		"A `string` transform has `trim` but no `type`: it could be `TrimPrefix` or `TrimSuffix`.",
		"Set `string.type` to `TrimPrefix` or `TrimSuffix`.",
	},
	"C123": {
		"A connection detail has no source: none of `value`, `fromConnectionSecretKey` and `fromFieldPath`, or not the one its `type` needs. Crossplane failed on it at run time.",
		"Add the source field the detail's type reads.",
	},
	"C124": {
		"A connection detail of type `FromValue` or `FromFieldPath` has no `name`. Crossplane failed at run time, and function-patch-and-transform rejects the whole input.",
		"Add `name`, the key the value gets in the connection secret.",
	},
	"C125": {
		"A connection detail has an unknown `type`.",
		"Use `FromConnectionSecretKey`, `FromFieldPath` or `FromValue`.",
	},
	"C126": {
		"A readiness check of type `MatchCondition` has no `matchCondition`. Crossplane's CRD defaulted it; function-patch-and-transform crashes on it.",
		"Add `matchCondition` (`type: Ready`, `status: \"True\"` is what Crossplane defaulted).",
	},
	"C127": {
		"A readiness check is invalid: no `type`, no `fieldPath` where its type needs one, `MatchString` without `matchString`, or `MatchInteger` with `matchInteger: 0` (which Crossplane read as unset).",
		"Correct the check as the message says.",
	},
	"C128": {
		"A `match` transform's pattern has no `result`, or `result: null`. The field is required: the API server rejects such a Composition, and the function would produce nothing for the pattern.",
		"Set `result` to the value the pattern should produce.",
	},
	"C190": {
		"The converted document would not pass the validation Crossplane and the functions apply: the pipeline's shape, step names and function references, and every function input as the function itself validates it. Usually the legacy Composition was invalid already, and the message says so.",
		"Fix the field the message names in the legacy Composition. If that Composition is valid, this is a converter bug: please report it with the input.",
	},
	"C191": {
		"With `--target v2`, the Composition keeps something Crossplane v2 rejects: an unknown `spec` field (v2 validates strictly), or `publishConnectionDetailsWithStoreConfigRef`.",
		"Remove the field. Convert with `--target v1` while the cluster still runs Crossplane 1.x.",
	},
	"C192": {
		"Reading the converted document back, as kubectl would, found a change outside the intended edits. This guard protects you from a converter bug; nothing is written.",
		"Report it with the input; convert that document by hand meanwhile.",
	},

	// Warnings.
	"C201": {
		"A Pipeline-mode Composition still carried `spec.resources` or `spec.patchSets`. Crossplane ignored them in that mode and v2 prunes them, so they are removed.",
		"Nothing, unless someone believed those templates were in use: they never were.",
	},
	"C202": {
		"With `--target v2`, `publishConnectionDetailsWithStoreConfigRef` named a store other than `default`, so external secret stores are in use. Crossplane v2 removed them, and the field is dropped.",
		"Before upgrading, publish those connection details another way (a composed Secret, or your secret store's own operator). Until then convert with `--target v1`, which keeps the field.",
	},
	"C203": {
		"A field Crossplane's schema does not know. Under `spec` it is kept (the API server prunes it, or rejects it with strict field validation); inside a resource template it is removed, because the function would reject the whole input; a duplicate key is removed, because kubectl keeps only the last one.",
		"Delete the field, or fix its spelling if it was meant to do something: it never took effect.",
	},
	"C204": {
		"The templates had no names, and the converter named them (`resource-<index>`, or `<kind>-<index>` with `--name-strategy kind`). Pipeline mode finds existing composed resources by their `crossplane.io/composition-resource-name` annotation, which Crossplane never set for unnamed templates, so applying the Pipeline Composition directly breaks every XR that exists already.",
		"Roll out in two phases, as the [runbook](../migration-runbook.md#two-phase-rollout-for-unnamed-templates) describes: first the Resources-mode Composition with the names (`--phase1`), then, once every XR has reconciled, the Pipeline Composition. With `--strict`, add `--ack-unnamed` to accept the generated names.",
	},
	"C205": {
		"The environment selects EnvironmentConfigs with a Selector, and `policy.resolve` was absent or `IfNotPresent`. Crossplane selected once and pinned the result in the XR's `spec.environmentConfigRefs`; function-environment-configs selects again on every reconcile, so a new or relabelled EnvironmentConfig changes the environment of existing XRs.",
		"Make each selector match exactly the configs you want (or use Reference entries), and check which configs match today before migrating. `xpmigrate verify` reports the gap as D35.",
	},
	"C206": {
		"With `--assume-env-flag=off`, `spec.environment` and the environment patches are dropped: Crossplane ran without `--enable-environment-configs`, so they never ran, and converting them would switch them on.",
		"Confirm that the flag really was off on every cluster that uses the Composition.",
	},
	"C207": {
		"A Pipeline-mode Composition had `spec.environment.patches`. Crossplane ignored them in Pipeline mode (crossplane/crossplane#5267), so they are dropped, which keeps behaviour the same.",
		"Nothing. If the patches were meant to run, `--move-env-patches` moves them into the patch-and-transform step, which changes behaviour.",
	},
	"C208": {
		"A string `Join` uses a separator longer than one byte. function-patch-and-transform cuts only the last byte of the trailing separator: with `\", \"` it renders `a, b,` where Crossplane rendered `a, b`.",
		"Use a one-byte separator, or remove the leftover with a `Regexp` transform after the join. `xpmigrate verify` reports the difference as D31.",
	},
	"C209": {
		"A `ToCompositeFieldPath` or `CombineToComposite` patch writes to the XR outside `status`. Pipeline mode persists only the XR's status, so the write is silently lost, and any patch that reads the value back gets nothing.",
		"Write the value under `status` (extend the XRD's status schema) and read it from there. `xpmigrate verify` reports the difference as D5 or D14.",
	},
	"C210": {
		"A `MatchInteger` readiness check. Integers reach function-patch-and-transform as float64, so the check never matches and the resource, and the XR, stay unready.",
		"Use `MatchString` on a string field, `NonEmpty`, or `MatchCondition` instead. `xpmigrate verify` reports the difference as D21.",
	},
	"C211": {
		"A combine's `string.fmt` uses a verb that prints an int64 and a float64 differently (`%d`, `%x`, `%q`, `%5.2f`, `%T`, …) and a variable may be an integer. Integers reach the function as float64 and print as `%!d(float64=5432)`, a hex float, `float64`. Combine variables take no transforms, so the converter cannot compensate as it does for C323.",
		"Use `%v` (exact below 1e6), or patch the integer into a string field first and combine that. `xpmigrate verify` reports the difference as D30.",
	},
	"C212": {
		"A string `Format` transform uses an integer verb (`%d`, `%x`, `%05d`, …) on a value that natively can be an int64 but that the converter cannot prove is always one: an XR or composed resource field whose type no XRD gives (or whose XRD type is `number`, nullable, or int-or-string), or environment data after a patch of the Composition wrote to the environment (native Crossplane then re-read the whole environment with integral numbers as int64). Native Crossplane printed such an integer as `100`; function-patch-and-transform receives every number as float64 and prints `%!d(float64=100)`. A convert to int64 would restore native output for integers but truncate fractions, fail on non-numeric strings and print bools as 1/0, so the converter inserts none and keeps every other value's output identical. Where the value is float64 natively too (EnvironmentConfig data, `map` values, `match` results, `math` on float64, `convert` to float64) nothing is reported: both sides print `%!d(float64=N)`.",
		"Give the XRD (`convert --xrd FILE`, or put it in the same file; `migrate` finds it in the tree): an XR field typed `integer` gets the convert (C323). Or fix the quirk on purpose with `--fix-quirk C325`, or convert the value in the Composition yourself. `xpmigrate verify` reports the difference as D30.",
	},
	"C213": {
		"A `spec.environment.patches` patch of type `ToCompositeFieldPath` or `CombineToComposite` writes to the XR's `status`. Native Crossplane discarded that write: the XR update that followed the environment patches replaced the in-memory XR, so only the same reconcile's patches saw the value and it was never persisted (crossplane/crossplane#4393, legacy spec Q-4). function-patch-and-transform writes the field to the desired XR and Crossplane persists it, so after conversion the XR's status gains a field it never had. The conversion cannot reproduce the loss.",
		"Check that nothing reads the new status field in a way that changes behaviour, or remove the patch if the field is not wanted. `xpmigrate verify` reports the difference as a known gap.",
	},
	"C214": {
		"The converter converted what the cluster actually ran, which differs from the file: (1) the Composition carries the alpha `spec.functions` of Crossplane 1.11–1.13, which the API server prunes from Crossplane 1.14 on, so the functions did not run and the rest ran as an ordinary Resources-mode Composition; the conversion drops the field and converts the rest (before, this was refused as C105). (2) The Composition has no resources (`resources: []` or none), typically a kustomize base whose overlays add them. Crossplane refuses it alone (`spec.resources: Required value`), and so does function-patch-and-transform (`resources or environment patches are required`, at run time): the conversion writes `resources: []` into the function input so that the base stays as refused as it was, and overlays can complete it.",
		"(1) Nothing, unless the functions were meant to run: then add them as pipeline steps by hand. (2) Retarget the kustomize overlays: they must add resources under `spec.pipeline[<patch-and-transform step>].input.resources` instead of `spec.resources` (`migrate` reports patches into moved paths).",
	},
	"C215": {
		"A string `Format` transform uses a verb that prints an int64 and a float64 differently (`%q`, `%e`, `%f`, `%g`, `%T`, …) and is not covered by the int64 compensation of C323. Integers reach the function as float64, so `%T` prints `float64` where native printed `int64`, `%q` prints `%!q(float64=7)` where native printed a quoted rune.",
		"Put a `convert` transform to `int64` or `string` before the format, or use `%v`. `xpmigrate verify` reports the difference as D30.",
	},
	"C216": {
		"A patch's `fromFieldPath`, `toFieldPath` or combine variable cannot be parsed (`spec.a..b`, a trailing `.`, an unterminated `[`). The patch fails whenever it runs: natively by skipping the resource (or failing the reconcile, for a ToComposite patch or a patch with a policy, even while its source is absent), in the function by failing the whole pipeline.",
		"Fix the path. `xpmigrate verify` reports the difference as D46.",
	},
	"C217": {
		"A `ToCompositeFieldPath` or `CombineToComposite` patch's `toFieldPath` expands a wildcard (`status.ids[*]`), names a key that looks like an index (`status.l[-1]`), or indexes a list whose other items no patch writes (`status.zones[1]` without `status.zones[0]`; patches that together write every item from the first are fine). Natively the patch writes into the XR as it is: the list's other items stay, `[*]` expands over the items the XR has, a key of an existing list fails the reconcile. The pipeline writes into the desired XR, which holds only what the patches put there: the list is replaced whole, `[*]` finds nothing to expand and fails.",
		"Write a whole field (`status.zone`, or the whole list from a field that holds it). `xpmigrate verify` reports the difference as D6.",
	},
	"C218": {
		"A patch with a `policy` writes a `toFieldPath` with a wildcard (`[*]`), or one that reads a key of a list the base sets (`spec.l[-1]`: brackets that are not an unsigned index name a key). Natively the apply-time merge of such a patch reads `[*]` as a key named `*`, and fails the reconcile whenever the field holds a list, even while the patch's source is absent. The function does not merge at apply time.",
		"Drop the policy, or write each element's path by index. `xpmigrate verify` reports the difference as D15.",
	},
	"C219": {
		"A `convert` transform to `int64`, `int` or `float64` with `format: quantity` or `format: json`. A conversion between equal types returns its input whatever the format, and a number is an int64 natively and a float64 in the function: to int64, native passes an integer through where the function fails (\"conversion from float64 to int64 is not supported with format quantity\"); to float64, the other way round.",
		"Use the format only for string inputs: drop it (format none) when the input is a number. `xpmigrate verify` reports the difference as D30.",
	},

	// Information.
	"C301": {
		"A CompositionRevision was found. Crossplane generates revisions from Compositions; they are never converted.",
		"Nothing. If the revision was exported into the repository by mistake, remove it.",
	},
	"C302": {
		"Fields the server writes (`status`, `uid`, `resourceVersion`, `generation`, `creationTimestamp`, `managedFields`, `selfLink` and the `kubectl.kubernetes.io/last-applied-configuration` annotation) were removed, as found in `kubectl get -o yaml` exports.",
		"Nothing. `--keep-server-fields` keeps them.",
	},
	"C303": {
		"With `--target v2`, `publishConnectionDetailsWithStoreConfigRef` held only the default store reference, which v2 no longer has; it is removed.",
		"Nothing.",
	},
	"C304": {
		"The environment-configs step's name was taken by another step, so the new step got a `-2` (`-3`, …) suffix.",
		"Nothing, or choose the name with `--ec-step-name`.",
	},
	"C305": {
		"A `functionRef.name` was derived from a Configuration's dependency, the way Crossplane names a package it installs as a dependency (`xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform` becomes `crossplane-contrib-function-patch-and-transform`).",
		"Check that the name matches the Function installed in your clusters; otherwise pass it with `--function-patch-and-transform-ref` or `--function-environment-configs-ref`.",
	},
	"C306": {
		"A YAML alias would have come before its anchor after the blocks moved into the pipeline, so it was expanded in place.",
		"Nothing; the result is the same object.",
	},
	"C307": {
		"With `--target v2`, a template name is not a DNS-1123 label. Crossplane v2.0.0 derived composed resource names from template names and failed on such names; v2.0.1 fixed it.",
		"Run Crossplane v2.0.1 or later.",
	},
	"C308": {
		"`spec.environment` held only a `policy`, which has no effect without EnvironmentConfigs or `defaultData`; it is dropped and no environment-configs step is added.",
		"Nothing.",
	},
	"C309": {
		"The environment uses only Reference entries and `policy.resolve` was absent or `IfNotPresent`. References are now resolved on every reconcile instead of once, so only edits of the Composition change the result, and they take effect at once.",
		"Nothing, unless you relied on existing XRs keeping the old references after a Composition change.",
	},
	"C310": {
		"The native environment ran only when Crossplane was started with `--enable-environment-configs`; after conversion it always runs.",
		"Confirm the flag was on. If it was off, convert with `--assume-env-flag=off` (C206).",
	},
	"C311": {
		"The XR's `spec.environmentConfigRefs` is no longer read or written once the Composition is converted.",
		"Nothing; the field stays on existing XRs, unused.",
	},
	"C312": {
		"`--fix-enum-case` rewrote an enum value written in the wrong case (`optional` → `Optional`).",
		"Nothing; the Composition now says what Crossplane would have required.",
	},
	"C313": {
		"A transform had no `type` (or a `string` transform no `string.type`) and exactly one block it could come from, so the converter set it. Crossplane's API server would have rejected or mis-defaulted such a transform, so the legacy Composition did not work as written there.",
		"Check that the inferred type is what was meant.",
	},
	"C314": {
		"A `math` transform with only `clampMin` or `clampMax` got the matching type. Crossplane defaulted the type to `Multiply`, so this transform failed natively; after conversion it works.",
		"Check that clamping is what you want: behaviour changes here, for the better.",
	},
	"C315": {
		"A resource patch has `policy.fromFieldPath: Required`. While its source is missing, the function leaves out a composed resource that does not exist yet and marks the XR not ready; for one that exists it applies the other patches and warns, where Crossplane skipped the resource.",
		"Make sure the source is always set (a default in the XRD), or drop `Required` if the resource may be composed without it. `xpmigrate verify` reports the differences as D9 and D23.",
	},
	"C316": {
		"A connection detail carries source fields its type does not read; they are kept, and ignored as before.",
		"Remove the unused fields to avoid confusion.",
	},
	"C317": {
		"The Composition has transforms that can fail (convert, regexp, match without a fallback, math on a non-number). A failing patch now fails the whole XR with a fatal result; Crossplane skipped only that resource and composed the others.",
		"Make the transforms total for the inputs the XRD allows (map entries for every value, a match fallback, an enum in the schema), and verify with samples that exercise the edge values. `xpmigrate verify` reports the difference as D10.",
	},
	"C318": {
		"Pipeline mode applies composed resources with server-side apply and migrates their managed fields once. A field a template stops rendering is then removed from the object, where client-side apply left it.",
		"Nothing, but expect removed template fields to disappear from live objects after the migration.",
	},
	"C319": {
		"XRs pinned to a revision (`compositionUpdatePolicy: Manual`, or a revision selector) keep running the Resources-mode revision on Crossplane 1.x. Crossplane v2 stops reconciling them until they move to a Pipeline revision.",
		"Move pinned XRs to the new revision before upgrading to Crossplane v2.",
	},
	"C320": {
		"The environment has a Selector. A selector that matched nothing selected nothing natively; function-environment-configs fails or skips it depending on its policy and version.",
		"Decide what no match should do (`policy.resolution`, `minMatch`) and verify with a sample where nothing matches. `xpmigrate verify` reports the difference as D36.",
	},
	"C321": {
		"With `--xr-style v2`: a patch reads claim machinery (`spec.claimRef`, `spec.compositionRef`, `spec.resourceRefs`, `spec.writeConnectionSecretToRef`, the `crossplane.io/claim-*` labels), which v2-style XRs keep under `spec.crossplane` or do not have. The output is unchanged.",
		"Before moving the XRD to namespaced or cluster scope, read these values from their new place or drop the patch.",
	},
	"C322": {
		"With `--xr-style v2`: v2-style XRs have no native connection secret; function-patch-and-transform composes one itself when its input sets `writeConnectionSecretToRef`. The output is unchanged.",
		"Plan how connection details are published before moving the XRD to namespaced or cluster scope.",
	},
	"C323": {
		"Compensation K1: a `convert` to `int64` was inserted before a string `Format` transform with an integer verb, where the value is provably an integer natively: an XR field the XRD types `integer` (not nullable), possibly through `math` or another int64-preserving transform. Without it the integer, which reaches the function as float64, would print as `%!d(float64=2)` where Crossplane printed `2`. Where the value can be anything else, the converter inserts nothing and reports C212 (or fixes the quirk on request, C325).",
		"Nothing. `--no-compensate K1` turns the compensation off (the difference is then reported as C212).",
	},
	"C324": {
		"Compensation K2: for `--target v1` the environment-configs step is meant for function-environment-configs v0.6.0. Releases from v0.7.0 on receive no EnvironmentConfigs from Crossplane 1.x (a silently empty environment).",
		"Install function-environment-configs v0.6.0 while the cluster runs Crossplane 1.x (`xpmigrate convert --emit-functions` writes the pinned Function manifests); move to v0.7 after the upgrade to v2 (`--target v2`). `xpmigrate verify` reports the difference as D43.",
	},
	"C325": {
		"Quirk fixed on request (`--fix-quirk C325`): integer verb now prints the integer (intended change). A `convert` to `int64` was inserted before a string `Format` transform with an integer verb where the value can be a number that native Crossplane printed as `%!d(float64=N)` (EnvironmentConfig data, `map` values, `match` results, float64 arithmetic), or an XR field of unknown type (C212). The output changes on purpose: `N` is printed, fractions are truncated, a non-numeric string fails the patch, a bool prints 1 or 0. The converted Composition is annotated `xpmigrate.io/intended-changes: \"C325\"` (the comma-separated, sorted codes of every fix applied), and `xpmigrate verify` reports the differences as intended changes.",
		"Nothing, if the change is wanted: it is declared in the annotation. Without `--fix-quirk C325` the conversion reproduces the native output.",
	},
	"C480": {
		"Reported by `xpmigrate verify --target v2` for a v2-native Composition (one with the `xpmigrate.io/v2-mapping` annotation), as a mapped difference: Crossplane v2 puts every composed resource of a namespaced XR in the XR's namespace (and refuses cluster-scoped kinds), so verify maps the legacy render's `metadata.namespace` to the v2 XR's namespace before comparing.",
		"Nothing: it is what Crossplane v2 does. A template that needs another namespace needs a cluster-scoped XR (`--xr-scope cluster`).",
	},
	"C481": {
		"Reported by `xpmigrate verify --target v2` as a mapped difference: a v2 XR has no claim, so its composed resources have no `crossplane.io/claim-name` and `crossplane.io/claim-namespace` labels; verify removes them from the legacy render before comparing.",
		"Nothing, unless something selects composed resources by those labels: select by `crossplane.io/composite` (the v2 XR's name) instead.",
	},
	"C482": {
		"Reported by `xpmigrate verify --target v2` as a mapped difference: the composed resources of the v2 XR name it, not the legacy XR: the controller owner reference (apiVersion, kind, name), the `crossplane.io/composite` label, and the `generateName` prefix of unnamed resources (the claim's name instead of the legacy XR's generated one).",
		"Nothing: new composed resources get new names. To keep existing cloud resources, give templates explicit names or external names before the move.",
	},
	"C483": {
		"Reported by `xpmigrate verify --target v2` as a mapped difference: a v2 XR has no connection Secret of its own; function-patch-and-transform v0.10 and later composes one (composed resource `<xr>-connection-secret`, named by the XR's `spec.writeConnectionSecretToRef`, else its input's `writeConnectionSecretToRef`, else `<xr>-connection`, in the XR's namespace). verify turns the legacy XR's connection details into that Secret (the input's connection Secret patches are not applied) and drops the `spec.writeConnectionSecretToRef` it derived from `writeConnectionSecretsToNamespace`.",
		"Point consumers of the old connection Secret at the new one.",
	},
	"C484": {
		"Reported by `xpmigrate verify --target v2` as a mapped difference: a v2 XR keeps its resource references in `spec.crossplane.resourceRefs`, and they name the v2 composed resources (their new API group, namespace and name).",
		"Nothing; read references from `spec.crossplane.resourceRefs`.",
	},
	"C485": {
		"Reported by `xpmigrate verify --target v2` as a mapped difference: each sample's v2 XR twin has the mapping's type, the claim's name and namespace (a legacy XR without a claim keeps its name and goes to namespace `default`, an assumption the report states), no `spec.claimRef` and no claim labels; the legacy XR is mapped the same way before comparing.",
		"Nothing: it is the twin verify renders.",
	},
}

// An explanation says when the converter reports a code and what to do.
type explanation struct {
	meaning, fix string
}

// Explain returns what a code means and what the user does about it, in
// Markdown; ok is false for a code without an explanation.
func Explain(c Code) (meaning, fix string, ok bool) {
	e, ok := explanations[c]
	return e.meaning, e.fix, ok
}
