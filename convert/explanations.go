package convert

// explanations say, for every code of Registry, when the converter reports
// it and what to do about it (docs/reference/diagnostics.md and the sections it
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
		"A combine's `string.fmt` uses a verb that prints an int64 and a float64 differently (`%d`, `%x`, `%q`, `%5.2f`, `%T`, …) and a variable may be an integer. Integers reach the function as float64 and print as `%!d(float64=5432)`, a hex float, `float64`. Combine variables take no transforms, so the converter can only change the verb: where every number verb is a `%d` or `%v` (no precision, no `#`) of a CombineFromComposite variable the XRD types `integer`, it does (C327); anything else is reported here.",
		"Give the XRD (`convert --xrd FILE`, or put it in the same file; `migrate` finds it in the tree) if the variable is an integer XR field, so C327 applies. Otherwise use `%v` (exact below 1e6), or patch the integer into a string field first and combine that. `xpmigrate verify` reports the difference as D30.",
	},
	"C212": {
		"A string `Format` transform uses an integer verb (`%d`, `%x`, `%05d`, …) on a value that natively can be an int64 but that the converter cannot prove is always one: an XR or composed resource field whose type no XRD gives (or whose XRD type is `number`, nullable, or int-or-string), or environment data after a patch of the Composition wrote to the environment (native Crossplane then re-read the whole environment with integral numbers as int64). Native Crossplane printed such an integer as `100`; function-patch-and-transform receives every number as float64 and prints `%!d(float64=100)`. A convert to int64 would restore native output for integers but truncate fractions, fail on non-numeric strings and print bools as 1/0, so the converter inserts none and keeps every other value's output identical. Where the value is float64 natively too (EnvironmentConfig data, `map` values, `match` results, `math` on float64, `convert` to float64) nothing is reported: both sides print `%!d(float64=N)`.",
		"Give the XRD (`convert --xrd FILE`, or put it in the same file; `migrate` finds it in the tree): an XR field typed `integer` gets the convert (C323). Or fix the quirk on purpose with `--fix-quirk C325`, or convert the value in the Composition yourself. `xpmigrate verify` reports the difference as D30.",
	},
	"C213": {
		"A `spec.environment.patches` patch of type `ToCompositeFieldPath` or `CombineToComposite` writes to the XR's `status`. Native Crossplane discarded that write: the XR update that followed the environment patches replaced the in-memory XR, so only the same reconcile's patches saw the value and it was never persisted (crossplane/crossplane#4393; quirk Q-4 in docs/semantics/legacy.md). function-patch-and-transform writes the field to the desired XR and Crossplane persists it, so after conversion the XR's status gains a field it never had. The conversion cannot reproduce the loss.",
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

	"C220": {
		"A Combine's `string.fmt` or a string `Format` prints a value that may be an integer with `%s`, `%v` or an argument the format has no verb for, and a later transform re-encodes that text (a `Format` with `%x`, `%d` or another number verb, a string `Convert` such as `ToBase64` or `ToSha256`, a `Regexp`, a `map` or `match` lookup). The format prints an integer differently natively, where it is an int64 (`%s` of 7 prints `%!s(int64=7)`, `%v` of 1234567 prints `1234567`), and in the function, where it is a float64 (`%!s(float64=7)`, `1.234567e+06`). Printed on its own, the difference stays recognisable; once re-encoded it reaches the output as unrelated text.",
		"Convert the value to `string` or `int64` (a `convert` transform, or a patch into a string field for a Combine variable) before it is formatted, or format it with an integer verb the converter compensates (C323). `xpmigrate verify` reports the difference as D30.",
	},

	"C221": {
		"A transform had no `type` (C313), or a `math` or `string` transform no sub-type where its default (`Multiply`, `Format`) lacks its field (C313, C314). Crossplane's own validation refuses such a Composition as a whole (\"refusing to use invalid Composition\"), so natively no XR of it was composed. The converter repairs the transform from its only configuration block, and the conversion renders: its output differs from what the cluster did.",
		"Set the type in the legacy Composition, so that it is valid natively before it is converted; or accept the change (the repaired transform does what its configuration says). `xpmigrate verify` reports the difference as D4.",
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
	"C326": {
		"Compensation K5: a template's `base` set `metadata.name` or `metadata.namespace`, and the converter removed it. Native Crossplane never used either: it read the base over an object holding only the existing composed resource's name and namespace and put those back afterwards, so a new composed resource got a name generated from the XR's name (`<XR name>-<suffix>`) and no namespace unless a patch set one. function-patch-and-transform keeps the base's metadata as written, and Crossplane's function composer generates a name only for a resource that has none, so after a literal conversion every XR of the Composition would create its resource under the same fixed name: the first one owns it and the others fail to compose. Patches that write `metadata.name` or `metadata.namespace` are kept and behave as before, and existing composed resources keep their names on both sides. Only for `--target v1` and `--target v2 --xr-scope legacy`; the v2-native conversion places composed resources by the XR's scope (C446).",
		"Nothing: the conversion does what the cluster did. If one fixed name was what you wanted (one shared object for a single XR), set it with a patch, which native Crossplane honoured too. `--no-compensate K5` keeps the base as written; `xpmigrate verify` then reports the difference as the breaking gap D11.",
	},
	"C327": {
		"Compensation K4: a Combine patch's `string.fmt` printed a CombineFromComposite variable with `%d` or `%v`, and that variable is an XR field the XRD types `integer` (not nullable), so native Crossplane always read it as an int64. The function receives it as float64, which `%d` prints as `%!d(float64=4430)` and `%v` as `1e+06` from a million on. The converter replaced the verb with `%.0f`, keeping its flags and width (`%05d` becomes `%05.0f`): that prints an integral float64 digit for digit as the original verb printed the int64, sign and padding included. It does so only when the whole format is safe to rewrite: every verb takes the next variable (no `%[n]d`, no `*`), there are as many verbs as variables, and no other verb prints a number differently; otherwise it reports C211 and leaves the format alone.",
		"Nothing: the output is the native one. `--no-compensate K4` keeps the format as written (C211, and `xpmigrate verify` reports D30).",
	},
	// The v2-native conversion (--target v2): definitions.
	"C401": {
		"With `--target v2` (any `--xr-scope` but `legacy`), an `apiextensions.crossplane.io/v1` CompositeResourceDefinition was written as an `apiextensions.crossplane.io/v2` one, in its place in the file. It is a new object: an XRD's scope, group and names are immutable, so a live XRD cannot be switched. Its name is `<plural>.<group>` of the v2 XR type, which `--xr-naming` chooses (`drop-prefix`: same group, the leading `X` dropped from kind, plural, singular and list kind; `new-group`: the same in the group `--xr-group`). Its `scope` is `Namespaced` (`--xr-scope cluster` makes it `Cluster`). The versions and their schemas are kept, and so are `defaultCompositionUpdatePolicy`, `conversion` and `spec.metadata`.",
		"Apply the v2 XRD next to the v1 one (the v1 platform stays in git), create v2 XRs for the claims and legacy XRs, and delete the v1 objects once the v2 XRs are ready.",
	},
	"C402": {
		"With `--xr-scope auto` (the default), a Composition of the XRD's type in the same input composes something a Namespaced XR cannot: a template whose kind is cluster-scoped (Kubernetes kinds such as `Namespace`, `ClusterRole`, `StorageClass`, CRDs and webhooks; Crossplane packages, definitions, Compositions and EnvironmentConfigs; `ClusterUsage`, cert-manager's `ClusterIssuer`, External Secrets' `ClusterSecretStore` and `ClusterExternalSecret`, Kyverno's `ClusterPolicy`), a template that sets `metadata.namespace`, or a patch that writes `metadata.namespace` from anything but `spec.claimRef.namespace`. Crossplane v2 refuses cluster-scoped composed resources of a Namespaced XR and overwrites their namespace. The check reads only the Compositions of the same input, their templates' `base` and patches (patch sets included); managed resources (a provider's `Cluster` kinds included) and the v1 `Usage` are not counted, since `--target v2` composes their namespaced twins. The XRD is not converted.",
		"Choose the scope: `--xr-scope cluster` keeps the XRs cluster-scoped (they then compose across namespaces); `--xr-scope namespaced` makes them Namespaced, after changing the templates so that everything is composed in the XR's namespace.",
	},
	"C403": {
		"The v2 XR type's CRD has the name of another CRD of the v1 platform: with `--xr-naming drop-prefix` the kind or plural without `X` is often the v1 XRD's claim (`XPostgreSQLInstance` → `PostgreSQLInstance`, the claim's kind), and a kind without `X` keeps the v1 XR type's own name. The two CRDs cannot exist at once, so the v2 XRD can be applied only once the claims and the v1 XRD (or the v1 XRs and XRD) are gone.",
		"For an adopt-in-place move, where the v1 and v2 types run side by side while the composed resources change hands, convert with `--xr-naming new-group --xr-group GROUP`. Otherwise plan the cut-over: delete the claims (with `compositeDeletePolicy` and the managed resources' `deletionPolicy: Orphan`), the v1 XRD, then apply the v2 XRD.",
	},
	"C404": {
		"`spec.claimNames` was removed: v2 XRDs offer no claims (Crossplane v2's CRD rejects `claimNames` in `apiextensions.crossplane.io/v2`). A v2 XR takes the claim's place: a Namespaced one in the claim's namespace, or a cluster-scoped one.",
		"Nothing in the XRD. Create a v2 XR for each claim (for Namespaced XRs in the claim's namespace), and point clients (kubectl, GitOps, Helm charts) at the new kind.",
	},
	"C405": {
		"`spec.defaultCompositeDeletePolicy` was removed: it was the default of the claims' `compositeDeletePolicy` (whether deleting a claim deletes its XR in the background or the foreground), and v2 XRs have no claims.",
		"Nothing. A v2 XR is deleted directly; its composed resources go with it unless their `managementPolicies` say otherwise.",
	},
	"C406": {
		"`spec.connectionSecretKeys` was removed (Crossplane v2's CRD rejects it in `apiextensions.crossplane.io/v2`): v2 XRs have no connection secret Crossplane writes for them. The keys listed there filtered which connection details reached the XR's secret; that filtering is lost, and the connection Secret function-patch-and-transform composes for the XR (named by the XR's `spec.writeConnectionSecretToRef`, which the v2 XRD declares, C416, else by the step input's `writeConnectionSecretToRef`) holds every connection detail the Composition declares.",
		"If a consumer must not see some keys, drop those connection details from the Composition, or compose a Secret with only the wanted keys.",
	},
	"C407": {
		"`spec.defaultCompositionRef.name` or `spec.enforcedCompositionRef.name` now names the v2 Composition: the legacy Composition composes the old XR type, and the v2 one has a new name (Composition names are cluster-wide and both exist during the move): the old plural, and with `--xr-naming new-group` the old group, are replaced where they are dot-separated segments of the name, else `-v2` is appended.",
		"Nothing, when the Composition is converted with the same options. A Composition converted separately must keep that name.",
	},
	"C408": {
		"A CEL rule (`x-kubernetes-validations` `rule` or `messageExpression`, at the schema root or at `spec`) or a printer column's `jsonPath` read legacy XR machinery: `spec.compositionRef`, `spec.compositionSelector`, `spec.compositionRevisionRef`, `spec.compositionRevisionSelector`, `spec.compositionUpdatePolicy` or `spec.resourceRefs`. v2 XRs keep these under `spec.crossplane`, and the path was rewritten there (`has(self.spec.compositionRef)` becomes `(has(self.spec.crossplane) && has(self.spec.crossplane.compositionRef))`, since `spec.crossplane` may be absent). A printer column reading `spec.claimRef.namespace` of a Namespaced XR now reads `metadata.namespace`, the claim's namespace being the XR's.",
		"Nothing; review the rewritten rule.",
	},
	"C409": {
		"A CEL rule at the schema root or a printer column read `spec.claimRef.name`, and now reads `metadata.name`: the same value only when each v2 XR takes the name of the claim it replaces (the example twins xpmigrate writes do).",
		"Name the v2 XRs as their claims, or change the rule or column.",
	},
	"C410": {
		"A CEL rule reads a field v2 XRs do not have: `spec.claimRef` (other than `name` at the schema root; CEL cannot read `metadata.namespace`) or `spec.writeConnectionSecretToRef`, which the XRD's schema does not declare itself. The API server would reject the v2 XRD's CRD (a rule may only read fields of the schema), so the XRD is not converted.",
		"Rewrite or remove the rule in the v1 XRD, then convert again.",
	},
	"C411": {
		"A printer column's `jsonPath` reads a field v2 XRs do not have: `spec.claimRef` (other than `name`, and `namespace` of a Namespaced XR), `spec.writeConnectionSecretToRef`, or the namespace of `spec.resourceRefs` of a Namespaced XR (which composes in its own namespace and records no namespace). The column is kept, and stays empty.",
		"Change the column's `jsonPath`, or remove the column.",
	},
	"C412": {
		"The XRD was a cluster export: `status`, the metadata the API server fills in (`uid`, `resourceVersion`, `generation`, `creationTimestamp`, `managedFields`, `selfLink`) and kubectl's last-applied annotation were removed. The v2 XRD is a new object, which cannot be created with them.",
		"Nothing.",
	},
	"C413": {
		"The CompositeResourceDefinition cannot be converted to v2: its apiVersion is neither `apiextensions.crossplane.io/v1` nor `v1beta1` (the earlier spelling of the same spec, converted like v1), it lacks `spec.group`, `spec.names.kind` or `spec.names.plural`, its metadata is not a mapping, or it uses a YAML merge key (`<<`) where the conversion edits.",
		"Correct the XRD (or expand the merge key) and convert again.",
	},
	"C414": {
		"A CEL rule rewritten to `spec.crossplane` (C408) reads a machinery field outside a `has()` test, e.g. `self.spec.crossplane.compositionUpdatePolicy == 'Automatic'`. A legacy XR always had the field (Crossplane defaulted `compositionUpdatePolicy`, and the rule ran when it was set), but a v2 XR has no `spec.crossplane` until someone sets it, and reading a missing field fails the rule with \"no such key\": the API server then rejects the XR.",
		"Guard the read: `!has(self.spec.crossplane) || …`, or `has(self.spec.crossplane) && has(self.spec.crossplane.compositionUpdatePolicy) && …`.",
	},
	"C415": {
		"The `apiextensions.crossplane.io/v1` XRD already has `scope: Namespaced` or `scope: Cluster` (Crossplane v2 accepts these in v1 too): it defines v2-style XRs already, so it is the same object at `apiextensions.crossplane.io/v2`. Only the apiVersion was changed; its names and scope, which cannot change, are kept, and `--xr-scope` and `--xr-naming` do not apply to it.",
		"Nothing.",
	},
	"C416": {
		"Every v1 XR and claim had `spec.writeConnectionSecretToRef` (Crossplane added it to their CRDs); a v2 XR has it only when its XRD's schema declares it. The v2 XRD declares it in every version whose schema does not already: for `Namespaced` XRs `name` only (the Secret is in the XR's namespace, as a claim's was in the claim's), for `Cluster` XRs `name` and `namespace` (as a v1 XR's). function-patch-and-transform (≥ v0.10.0) names the connection Secret it composes for a v2 XR by the XR's own `spec.writeConnectionSecretToRef` before its input's, so the XR twins keep the Secret name their claim's users read (C472), and without the field the Secret is `<XR name>-connection` (C424).",
		"Nothing. Remove the field from the schema if no one reads the XR's connection Secret by a name of their choice.",
	},
	"C420": {
		"With `--target v2` and a v2-native XR scope (`--xr-scope namespaced|cluster`), the Composition is written as a **new** Composition for the v2 XR type: `compositeTypeRef` points at the new type (the naming policy `--xr-naming` drops a leading `X` from the kind, or moves it to `--xr-group`), and the name changes too (the old plural, and group with `new-group`, replaced where they are dot-separated segments of the name; otherwise `-v2` appended), because `compositeTypeRef` cannot change on a live Composition and Composition names are cluster-wide. The annotation `xpmigrate.io/v2-mapping` declares every edit from the legacy XR and templates to the v2 ones, each with its code, for `xpmigrate verify`.",
		"Apply the new Composition next to the old one, with the v2 XRD; move XRs (or claims) to the new type; delete the old Composition when no XR uses it.",
	},
	"C421": {
		"A patch reads or writes XR machinery (`spec.compositionRef`, `compositionSelector`, `compositionRevisionRef`, `compositionRevisionSelector`, `compositionUpdatePolicy`, `resourceRefs`), which a v2 XR keeps under `spec.crossplane`. The path is rewritten to `spec.crossplane.…`.",
		"Nothing.",
	},
	"C422": {
		"No CompositeResourceDefinition of the Composition's type was in the input or given with `--xrd`, so the v2 XR type is derived from the kind alone (the naming policy applied to the kind and group of `compositeTypeRef`), and the new Composition's name cannot follow the XRD's plural (it gets `-v2` unless the group changes).",
		"Pass the XRD (`--xrd FILE`, or put it in the same stream) and convert again, or check the type and name against the v2 XRD.",
	},
	"C423": {
		"`writeConnectionSecretsToNamespace` is removed: v2 XRs have no native connection Secret. Their connection details go to a Secret function-patch-and-transform composes (C424).",
		"Nothing; see C424 for where the Secret is now.",
	},
	"C424": {
		"The templates have `connectionDetails`: v2 XRs have no native connection Secret, so function-patch-and-transform (≥ v0.10.0) composes one as a composed resource of the XR (resource name `<XR name>-connection-secret`). It names the Secret by the XR's own `spec.writeConnectionSecretToRef` first, which the v2 XRD declares (C416) and the XR twins keep from their claims (C472). The converter sets the step input's `writeConnectionSecretToRef` for XRs without one: `<XR name>-connection`, in the XR's namespace for a namespaced XR, in the namespace of the old `writeConnectionSecretsToNamespace` for a cluster XR; since the input's patches apply on top of the XR's reference, its last patches copy the XR's own `name` (and, for a cluster XR, `namespace`) back, so the XR's reference wins. The mapping keeps the legacy XR's `spec.writeConnectionSecretToRef` (a namespaced XR's without `namespace`) and drops `spec.publishConnectionDetailsTo`. `connectionSecretKeys` no longer filters the keys (C406).",
		"Point the readers of the old connection Secret (named after the XR's uid, where the XR named none) at the new Secret. Install function-patch-and-transform v0.10.x (`--emit-functions`).",
	},
	"C425": {
		"A cluster-scoped v2 XR has no namespace, and the Composition names none (`writeConnectionSecretsToNamespace`), so the connection Secret function-patch-and-transform composes has no namespace and cannot be applied.",
		"Set `namespace` in the patch-and-transform step input's `writeConnectionSecretToRef`, or use `--xr-scope namespaced`.",
	},
	"C426": {
		"A patch reads the claim's namespace (`spec.claimRef.namespace` or the `crossplane.io/claim-namespace` label). A namespaced v2 XR has no claim and lives where the claim lived, so the path is rewritten to `metadata.namespace`.",
		"Nothing.",
	},
	"C427": {
		"A patch reads the claim's name (`spec.claimRef.name` or the `crossplane.io/claim-name` label); it is rewritten to `metadata.name`. The value is the same only for a v2 XR created under the claim's name (as xpmigrate's XR twins of claims are): a legacy XR of a claim was named `<claim name>-<random suffix>`, and a new v2 XR has whatever name its creator gives it. A patch that built external names from it builds them from the XR's name.",
		"Create each v2 XR with the name its claim had, or accept that names built from it change.",
	},
	"C428": {
		"A patch reads or writes claim or connection Secret machinery that a v2 XR does not have (`spec.claimRef` beyond its name and namespace, other `crossplane.io/claim-*` labels, `spec.writeConnectionSecretToRef` unless the v2 XRD schema declares it, the claim's namespace for a cluster XR, a write of the claim's name or namespace). It is kept as it is: the patch finds nothing (Optional) or fails (Required).",
		"Rewrite the patch to read a field the v2 XR has, or remove it.",
	},
	"C429": {
		"A patch uses `spec.writeConnectionSecretToRef.namespace`. For a namespaced v2 XR, connection Secrets are local: a read of the XR's field is rewritten to `metadata.namespace`, and a patch that writes a composed resource's `spec.writeConnectionSecretToRef.namespace` is removed (namespaced managed resources have no such field). For a cluster XR the use is flagged and kept.",
		"Nothing for a namespaced XR; for a cluster XR, rewrite or remove the patch.",
	},
	"C430": {
		"A patch uses the XR's `metadata.uid`. It is kept, but a new v2 XR has a new uid: names built from it change, and will not match the cloud resources the legacy XR created (they are not adopted; new ones are created).",
		"Build names from a stable field (the XR's name, a spec parameter), or set the external name of existing resources explicitly before moving XRs.",
	},
	"C432": {
		"With a v2-native XR scope, a Composition already in `mode: Pipeline` has a step of a function other than function-patch-and-transform (function-environment-configs, go-templating, KCL, ...). Its input is kept as it is: what it reads of the claim (`spec.claimRef`, the `crossplane.io/claim-*` labels) or of the XR's machinery (`spec.compositionRef`, `spec.resourceRefs`, ...) is not rewritten for the v2 XR. The patch-and-transform steps are rewritten as for a Resources-mode Composition.",
		"Check the step's input (templates, selectors, expressions) against the v2 XR: read `metadata.name`/`metadata.namespace` and `spec.crossplane.*` instead.",
	},
	// v2-native templates (--target v2; C440–C459).
	"C440": {
		"A template of a namespaced XR composes a Crossplane v1 managed resource, which is cluster-scoped; it now composes the namespaced twin the provider serves: the same kind in the group with an `m` label before the domain (`s3.aws.upbound.io` → `s3.aws.m.upbound.io`, `kubernetes.crossplane.io` → `kubernetes.m.crossplane.io`). The rule is applied for Upbound's official providers (AWS, Azure, Azure AD, GCP, and provider-terraform's `tf.upbound.io`) and for crossplane-contrib's provider-kubernetes, provider-helm, provider-http and provider-sql; any other provider's twin is found in the CRDs given with `--provider-crds`, which also give the version: the old one when the twin serves it, else the twin's storage version. provider-kubernetes' `Object` (`v1alpha1` or `v1alpha2`) becomes `kubernetes.m.crossplane.io/v1alpha1` `Object`, still a wrapper. The edit is recorded in the Composition's `xpmigrate.io/v2-mapping` annotation.",
		"Install the provider release that serves the namespaced twins. Existing external resources are not adopted by the new managed resources automatically: see the v2-native section of the migration runbook.",
	},
	"C441": {
		"Namespaced managed resources require `spec.providerConfigRef.kind`: `ClusterProviderConfig` (cluster-wide, the twin's default) or `ProviderConfig` (in the managed resource's namespace). The kind chosen with `--provider-config-kind` (default `ClusterProviderConfig`) is written into every `providerConfigRef` of a namespaced twin, and `name: default` where v1 defaulted the name. A template without a `providerConfigRef` is left to the twin's default (`ClusterProviderConfig` `default`) unless the kind chosen is `ProviderConfig`.",
		"Create the `ClusterProviderConfig` (or, with `--provider-config-kind ProviderConfig`, a `ProviderConfig` in each XR namespace) that the names refer to, in the twin's group.",
	},
	"C442": {
		"Namespaced managed resources have no `deletionPolicy`; management policies alone decide. `deletionPolicy: Orphan` becomes `managementPolicies: [Observe, Create, Update, LateInitialize]` (everything but `Delete`), `deletionPolicy: Delete` is removed (deleting is the default). Where the template already sets management policies other than `*`, those decided in v1 and are kept. A v1alpha1 provider-kubernetes `Object`'s `managementPolicy` becomes the `managementPolicies` that mean the same.",
		"Nothing. Note that with the Delete policy gone, deleting the XR orphans the external resource, as deletionPolicy Orphan did.",
	},
	"C443": {
		"A namespaced managed resource writes its connection Secret, and reads the Secrets its `*SecretRef` fields name, in its own namespace: the XR's. The `namespace` of `spec.writeConnectionSecretToRef` and of the Secret references under `spec.forProvider` and `spec.initProvider` is removed (a reference whose schema in the twin's CRD, given with `--provider-crds`, keeps a namespace keeps it).",
		"Make sure the Secrets the managed resources read exist in each XR's namespace (they were often in `crossplane-system`), and read connection Secrets from there.",
	},
	"C444": {
		"`spec.publishConnectionDetailsTo` (external secret stores) does not exist for namespaced managed resources, and Crossplane v2 removed external secret stores. It is removed; the connection details still go to `writeConnectionSecretToRef`.",
		"If something read the details from an external store, read them from the connection Secret instead, or sync the Secret to the store with another tool (External Secrets Operator's PushSecret, for example).",
	},
	"C445": {
		"The namespaced twin was named by the group rule of its provider (C440), but no CRD of it was given, so the version was kept. Twins do not always serve the versions of the cluster-scoped kind (a `v1beta2` cluster-scoped kind may have a `v1beta1` twin, for example).",
		"Check the version the provider serves (`kubectl get crd <plural>.<twin group> -o jsonpath='{.spec.versions[*].name}'`), or convert again with `--provider-crds` pointing at the provider's CRDs (its package's `package/crds` directory).",
	},
	"C446": {
		"A template of a namespaced XR sets `metadata.namespace`. Crossplane v2 creates every composed resource of a namespaced XR in the XR's namespace, overwriting the template's (crossplane/crossplane#6724), so the namespace is removed.",
		"If the resource must live in that namespace, the XR must be Cluster-scoped (`--xr-scope cluster`), or the resource must leave the Composition.",
	},
	"C447": {
		"A patch writes `metadata.namespace` of a composed resource of a namespaced XR. Crossplane v2 overwrites it with the XR's namespace (crossplane/crossplane#6724): the value is lost.",
		"Remove the patch; to place resources in other namespaces, use a Cluster-scoped XR (`--xr-scope cluster`).",
	},
	"C448": {
		"A template of a namespaced XR composes a cluster-scoped resource: a kind the provider CRDs (`--provider-crds`) say is cluster-scoped, a known cluster-scoped kind (Namespace, ClusterRole, CustomResourceDefinition, a v1 ProviderConfig…), or a v1 managed resource (it has `spec.forProvider`) with no namespaced twin known. Crossplane v2 refuses cluster-scoped composed resources in a namespaced XR (crossplane/crossplane#6588). The Composition is not converted.",
		"Convert with `--xr-scope cluster` (a Cluster-scoped v2 XR may compose cluster-scoped resources), give the provider's CRDs with `--provider-crds` if it has namespaced twins, move to a provider that has them, or move the resource out of the Composition.",
	},
	"C449": {
		"A patch writes a field that namespaced managed resources lack: `spec.publishConnectionDetailsTo`, the `namespace` of `spec.writeConnectionSecretToRef` or of a Secret reference. A patch in the template's own list is removed; one in a patch set (which other templates may use) is reported.",
		"For a patch set: remove the patch from it, or give this template its own copy without it.",
	},
	"C450": {
		"A patch writes `spec.deletionPolicy`, which namespaced managed resources lack. It now writes `spec.managementPolicies`, through a `map` transform appended to its transforms: `Orphan` → every policy but `Delete`, `Delete` → `[\"*\"]`. Where the patch is in a patch set it is reported instead.",
		"Check the values the patch can write: a value other than `Orphan` or `Delete` now fails the map transform.",
	},
	"C458": {
		"A template composes a composite resource of a legacy XRD (`apiextensions.crossplane.io/v1` or `v1beta1`, no modern scope) that `--target v2` converts with the same options: the template now composes the v2 XR that XRD defines (its apiVersion and kind by `--xr-naming`), and the composition machinery its base sets (`compositionRef`, `compositionSelector`, …) moved under `spec.crossplane`. The v2 XR is of the same scope as the XR that composes it, so a namespaced XR composes it in its own namespace. The edit is declared in the v2 mapping, so `xpmigrate verify` composes the nested v2 XR.",
		"Convert the nested XR's XRD with the same `--xr-scope` and `--xr-naming` (migrate does). A nested XR whose XRD is not converted here is flagged instead (C453).",
	},
	"C453": {
		"A template composes a composite resource of an XRD in the input. Converting that XRD to v2 gives its XR a new type (a new kind or group, `--xr-naming`), which this template must then name.",
		"Write the nested XR's new apiVersion and kind into the template when its XRD is converted.",
	},
	"C454": {
		"A patch writes a field whose shape changes in the namespaced twin: the whole `spec.providerConfigRef` (which needs a `kind`) or `spec.writeConnectionSecretToRef` (which has no `namespace`), or a v1alpha1 `Object`'s `spec.managementPolicy` (now `spec.managementPolicies`). The patch is kept.",
		"Patch the fields instead (`spec.providerConfigRef.name`, `spec.writeConnectionSecretToRef.name`), or write `spec.managementPolicies`.",
	},
	"C455": {
		"The template had `deletionPolicy: Orphan` and management policies that include `Delete`. Namespaced managed resources only have management policies, so deleting the managed resource now deletes the external resource.",
		"Remove `Delete` from `managementPolicies` to keep orphaning the external resource.",
	},
	"C456": {
		"With `--unwrap-objects`, the template of a provider-kubernetes `Object` now composes the object it wrapped (`spec.forProvider.manifest`) directly: patches of `spec.forProvider.manifest.*` and reads of `status.atProvider.manifest.*` address the object itself, and the wrapper's name, labels and annotations stay where the manifest sets none. Two things change. The object is created in the Crossplane cluster, with Crossplane's own permissions, whatever cluster the Object's ProviderConfig pointed at. And readiness: the Object was ready once the object was applied (readiness policy `SuccessfulCreate`), while most objects (ConfigMap, Secret, Deployment…) have no `Ready` condition that Crossplane can read, so the template gets `readinessChecks: [{type: None}]`: ready as soon as it is composed.",
		"Do not unwrap Objects whose ProviderConfig targets another cluster. Give Crossplane (its service account, through an RBAC ClusterRole aggregated to it) permission to manage the unwrapped kinds. Replace the `None` readiness check with one that reads the object where readiness matters (a Deployment's `Available` condition, for example).",
	},
	"C457": {
		"`--unwrap-objects` was given, but this `Object` depends on being a wrapper, so it stays one: it sets `references`, `watch`, `connectionDetails`, a readiness policy other than `SuccessfulCreate`, an Orphan deletion or other management policies, or more than the manifest under `forProvider`; or the template's patches read or write outside the manifest, use a patch set, or the template has connection details or readiness checks that read the Object.",
		"Nothing, or unwrap it by hand after moving what depends on the wrapper.",
	},
	// v2-native objects (--target v2, --xr-scope other than legacy).
	"C460": {
		"An `apiextensions.crossplane.io/v1alpha1` EnvironmentConfig was moved to `v1beta1`, the only version Crossplane v2 serves. The two versions have the same schema; only `apiVersion` changed.",
		"Nothing. Apply the file after the upgrade (or before it: Crossplane 1.x serves `v1beta1` too).",
	},
	"C461": {
		"An `apiextensions.crossplane.io` Usage (`v1alpha1` or `v1beta1`, deprecated in Crossplane v2) was replaced by a `protection.crossplane.io/v1beta1` ClusterUsage: the objects it names are cluster-scoped (legacy XRs, cluster-scoped managed resources), and ClusterUsage has the same fields (`of`, `by`, `reason`, `replayDeletion`). Only `apiVersion` and `kind` changed.",
		"Nothing, while the objects stay cluster-scoped. When they move to their namespaced v2 twins, protect those with a namespaced `protection.crossplane.io` Usage in their namespace.",
	},
	"C462": {
		"An `apiextensions.crossplane.io` Usage was replaced by a namespaced `protection.crossplane.io/v1beta1` Usage, because it has a `metadata.namespace` or names a namespaced managed resource (an `.m.` API group). A namespaced Usage protects objects in its own namespace; `spec.of` may name another namespace only when `spec.by` is set.",
		"Give the Usage the namespace of the objects it protects (`metadata.namespace`) if it has none: without one it is created in the namespace kubectl applies it to.",
	},
	"C463": {
		"A `pkg.crossplane.io/v1alpha1` ControllerConfig, which Crossplane v2 no longer serves, was replaced by a `pkg.crossplane.io/v1beta1` DeploymentRuntimeConfig of the same name, as Crossplane's `crank beta convert deployment-runtime` does: `replicas` goes to `spec.deploymentTemplate.spec`; `metadata` to the pod template's metadata; `serviceAccountName`, `nodeName`, `nodeSelector`, `imagePullSecrets`, `affinity`, `tolerations`, `priorityClassName`, `runtimeClassName`, `volumes` and `podSecurityContext` (as `securityContext`) to the pod spec; `image`, `imagePullPolicy`, `ports`, `securityContext`, `args`, `envFrom`, `env`, `volumeMounts` and `resources` to the `package-runtime` container; the ControllerConfig's own labels and annotations to the Deployment, ServiceAccount and Service templates. Each field keeps its comments.",
		"Point the packages at it: `spec.controllerConfigRef` is rewritten to `spec.runtimeConfigRef` (C465) where the package manifests are in the input; do the same for those installed from elsewhere.",
	},
	"C464": {
		"A field of a ControllerConfig's `spec` has no counterpart in a DeploymentRuntimeConfig (or is not a ControllerConfig field at all) and was dropped.",
		"Find where the setting belongs in the Deployment, ServiceAccount or Service template of the DeploymentRuntimeConfig and add it by hand, or delete it if nothing needs it.",
	},
	"C465": {
		"A Provider's or Function's `spec.controllerConfigRef`, which Crossplane v2 ignores, was replaced by `spec.runtimeConfigRef` naming the DeploymentRuntimeConfig of the same name (converted from the ControllerConfig, C463).",
		"Make sure that DeploymentRuntimeConfig is applied before the package.",
	},
	"C466": {
		"A Provider or Function had both `spec.controllerConfigRef` and `spec.runtimeConfigRef`. Crossplane v2 reads only the latter; the former was dropped, and with it the ControllerConfig's settings unless the DeploymentRuntimeConfig has them.",
		"Compare the ControllerConfig with the DeploymentRuntimeConfig `spec.runtimeConfigRef` names and merge what is missing.",
	},
	"C467": {
		"A `pkg.crossplane.io/v1beta1` Function was moved to `pkg.crossplane.io/v1` (same fields).",
		"Nothing.",
	},
	"C468": {
		"A package reference without a registry (`crossplane-contrib/function-x:v1.0.0`) was given `xpkg.crossplane.io`. Crossplane v2 has no default registry and refuses such references (in package manifests and in dependencies alike). Crossplane 1.20 resolved them against `xpkg.crossplane.io`; releases up to 1.19 used `xpkg.upbound.io`, and `--registry` could set another.",
		"Check that the registry is the one your control plane installed the package from; if not, write the reference with that registry.",
	},
	"C469": {
		"A Configuration's `crossplane.yaml` got the Crossplane version constraint `>=v2.0.0` (it had none, or one that admits Crossplane 1.x): its definitions and Compositions are v2-native, and Crossplane 1.x cannot install them.",
		"Nothing; keep the v1 package (in git) for control planes that still run 1.x.",
	},
	"C470": {
		"A Configuration's dependency on function-patch-and-transform or function-environment-configs was re-pinned to the releases the v2-native Compositions are verified against: patch-and-transform `>=v0.10.8` (v0.10.0 and later write the XR's connection Secret), environment-configs `>=v0.7.1, <v0.8.0` (the required-resources protocol of Crossplane v2).",
		"Nothing.",
	},
	"C471": {
		"`migrate --target v2` wrote a v2 XR twin of a claim or legacy XR example: the same object as an XR of the v2-native type (`--xr-naming`), in the claim's namespace (for a legacy XR, its `spec.claimRef.namespace`), with `spec` copied and `compositionRef` (renamed to the v2 Composition), `compositionSelector`, `compositionRevisionSelector` and `compositionUpdatePolicy` moved to `spec.crossplane`. The twins of the examples of `FILE.yaml` are written to `FILE.v2.yaml` beside it (in the output directory with `--out`), in the examples' order; comments are kept. They are samples for `verify` and for your own tests.",
		"Review the twins and keep them in the tree beside the v1 examples (or replace those once the platform runs v2).",
	},
	"C472": {
		"The example sets `spec.writeConnectionSecretToRef`. Crossplane v2 XRs write no connection Secret themselves; function-patch-and-transform ≥ v0.10.0 composes it and names it by the XR's own `spec.writeConnectionSecretToRef`, which the v2 XRD declares (C416). The twin keeps the field in that shape, so the Secret keeps the name the claim's users read: a namespaced XR's without `namespace` (its Secret is in its own namespace), a cluster XR's with one (the claim's namespace when a claim's reference named none).",
		"Nothing, when the XRD and the Composition are converted by the same run. Delete the field from the twin if nobody reads the Secret by that name.",
	},
	"C473": {
		"The example has fields Crossplane writes on claims and legacy XRs (`claimRef`, `resourceRef`, `resourceRefs`, `compositeDeletePolicy`); a v2 XR has no place for them or gets them from Crossplane, so the twin does not have them. With `--xr-scope cluster` the twin of a claim loses its `metadata.namespace` too: the XR is cluster-scoped.",
		"Nothing.",
	},
	"C474": {
		"The example sets a field that changes what the XR does and that a v2 XR has no place for: `compositionRevisionRef` (a revision of the legacy Composition), `environmentConfigRefs` (Crossplane v2 has no native environment) or `publishConnectionDetailsTo` (v2 has no External Secret Stores). The twin does not have it.",
		"Pin the twin with `spec.crossplane.compositionRevisionSelector` if it must not follow the Composition; select EnvironmentConfigs in the Composition's environment-configs step.",
	},
	"C475": {
		"`migrate --target v2` did not write the twins of an example file because the twin file (`FILE.v2.yaml`) already exists with other content. Migrate never overwrites a file it did not write in this run.",
		"Delete or rename the existing file (or compare it with what migrate would write: run with `--out DIR` into an empty directory) and run again.",
	},
	"C476": {
		"`migrate --target v2` could not write the v2 XR twin of one example: the converter could not read the document as an object. The other examples of the file get their twins.",
		"Correct the example, or write its twin by hand.",
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
