package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/udiff"
)

// convertOptions are the flags and argument of `xpmigrate convert`.
type convertOptions struct {
	file         string // "" or "-": stdin
	output       string
	inPlace      bool
	backupSuffix string
	force        bool
	check        bool
	diff         bool
	format       string

	target        string
	phase1        bool
	phase1Out     string
	nameStrategy  string
	emitFunctions bool
	ptFunction    string
	ecFunction    string
	ptStep        string
	ecStep        string
	configuration string

	strict           bool
	ackUnnamed       bool
	keepServerFields bool
	moveEnvPatches   bool
	fixEnumCase      bool
	assumeEnvFlag    string
	xrStyle          string
	noCompensate     []string
	fixQuirks        []string
	xrds             []string

	diagnosticsFormat string
}

// newConvertCmd returns `xpmigrate convert`. runF, when set, replaces the
// run (tests use it to check flag parsing).
func newConvertCmd(s streams, runF func(*convertOptions) error) *cobra.Command {
	o := &convertOptions{}
	cmd := &cobra.Command{
		Use:   "convert [FILE|-]",
		Short: "Convert legacy mode: Resources Compositions in one file to mode: Pipeline",
		Long: `Convert every mode: Resources Composition in a YAML file (or stdin) into a
mode: Pipeline Composition that runs function-patch-and-transform, with a
function-environment-configs step first when spec.environment selects
EnvironmentConfigs. Every default the API server used to fill in is written
out, policy.mergeOptions becomes policy.toFieldPath, and each function input
is validated as the function itself reads it before anything is written.

Everything else is kept: other documents byte for byte (separators, comments
and empty documents included), the items of a List one by one, and in each
Composition the comments, key order, quoting, anchors and indentation of what
the conversion does not rewrite. Pipeline Compositions, and the converter's
own output, come out unchanged.

The result goes to stdout, to -o FILE, or back into FILE with --in-place
(written to a temporary file and renamed, so FILE is never half-written).
Nothing is written when a Composition cannot be converted.

Findings go to stderr, one per line (FILE:LINE: CODE severity: path: message),
or as one JSON object with --diagnostics-format json. Codes C1xx are errors,
C2xx warnings (errors with --strict), C3xx information.

The conversion reproduces native behaviour, quirks included. Where it cannot
be faithful it says so with a warning code that verify uses to classify the
difference; an int64 convert goes before a %d format only where the value is
provably an integer (an XR field the XRD types integer: give the XRD with
--xrd or in FILE). --fix-quirk CODE fixes a quirk on purpose (C325: integer
format verbs print the integer where native printed %!d(float64=N)); the
converted Composition is then annotated xpmigrate.io/intended-changes with
the codes, and verify reports those differences as intended changes.

Unnamed templates get names (C204). Applying the Pipeline Composition directly
breaks XRs that exist already; roll out in two phases: --phase1 (or
--phase1-out FILE) writes the Resources-mode Composition with the names added.

Exit codes: 0 converted (or nothing to do); 1 a Composition could not be
converted; 2 invalid usage or input that is not YAML; 3 --check found that
FILE would change.`,
		Example: `  # Convert a file and print the result
  xpmigrate convert composition.yaml

  # Convert in place, for Crossplane v2
  xpmigrate convert --in-place --target v2 composition.yaml

  # CI: fail (exit 3) and show the diff when a file is not converted yet
  xpmigrate convert --check --diff composition.yaml

  # Two-phase rollout of unnamed templates
  xpmigrate convert --phase1 composition.yaml > phase1.yaml
  xpmigrate convert composition.yaml > pipeline.yaml

  # Fix the %!d(float64=N) quirk on purpose, typing XR fields from the XRD
  xpmigrate convert --fix-quirk C325 --xrd definition.yaml composition.yaml

  # From stdin, with the Function manifests appended
  kubectl get composition xdatabases.acme.io -o yaml | xpmigrate convert --emit-functions -`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{err: errors.Errorf("convert takes at most one file, got %d arguments", len(args))}
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.file = args[0]
			}
			if err := o.validate(); err != nil {
				return usageError{err: err}
			}
			if runF != nil {
				return runF(o)
			}
			return convertRun(s, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", "", "write the result to this file instead of stdout")
	f.BoolVar(&o.inPlace, "in-place", false, "write the result back into FILE")
	f.StringVar(&o.backupSuffix, "backup-suffix", "", "with --in-place, keep the original as FILE+SUFFIX")
	f.BoolVar(&o.force, "force", false, "write a read-only or hard-linked file anyway (its mode is kept; its other names keep the old content)")
	f.BoolVar(&o.check, "check", false, "write nothing; exit 3 if FILE would change")
	f.BoolVar(&o.diff, "diff", false, "write nothing; print a unified diff of the change on stdout")
	f.StringVar(&o.format, "output-format", "", "output format: yaml (edits the input, keeping its layout) or json (default: json for a JSON input, else yaml)")
	f.StringVar(&o.format, "format", "", "alias of --output-format")

	f.StringVar(&o.target, "target", string(convert.TargetV1), "Crossplane line the output is for: v1 (1.18–1.20, function-environment-configs v0.6.0) or v2")
	f.BoolVar(&o.phase1, "phase1", false, "write phase one of the rollout instead: the Resources-mode Composition with its unnamed templates named")
	f.StringVar(&o.phase1Out, "phase1-out", "", "also write phase one of the rollout to this file when templates were unnamed")
	f.StringVar(&o.nameStrategy, "name-strategy", string(convert.NameByIndex), "names for unnamed templates: index (resource-<i>) or kind (<kind>-<i>)")
	f.BoolVar(&o.emitFunctions, "emit-functions", false, "append pkg.crossplane.io/v1 Function manifests, pinned for the target, for the functions used")
	f.StringVar(&o.ptFunction, "function-patch-and-transform-ref", "", "functionRef name of function-patch-and-transform (default: a Function manifest in FILE, a dependency in --configuration, else function-patch-and-transform)")
	f.StringVar(&o.ecFunction, "function-environment-configs-ref", "", "functionRef name of function-environment-configs (default: as for --function-patch-and-transform-ref)")
	f.StringVar(&o.ptFunction, "pt-function", "", "alias of --function-patch-and-transform-ref")
	f.StringVar(&o.ecFunction, "ec-function", "", "alias of --function-environment-configs-ref")
	_ = f.MarkHidden("pt-function")
	_ = f.MarkHidden("ec-function")
	f.StringVar(&o.ptStep, "pt-step-name", convert.DefaultPTStep, "name of the patch-and-transform step")
	f.StringVar(&o.ecStep, "ec-step-name", convert.DefaultECStep, "name of the environment-configs step")
	f.StringVar(&o.configuration, "configuration", "", "a Configuration's crossplane.yaml whose dependsOn names the functions (default: crossplane.yaml beside FILE, if any)")

	f.BoolVar(&o.strict, "strict", false, "treat warnings as errors")
	f.BoolVar(&o.ackUnnamed, "ack-unnamed", false, "with --strict, accept generated template names (C204) as a warning")
	f.BoolVar(&o.keepServerFields, "keep-server-fields", false, "keep status, uid, resourceVersion and the other fields of a cluster export")
	f.BoolVar(&o.moveEnvPatches, "move-env-patches", false, "move the environment patches of a Pipeline Composition into its patch-and-transform step instead of dropping them (changes behaviour)")
	f.BoolVar(&o.fixEnumCase, "fix-enum-case", false, "rewrite enum values written in the wrong case (optional → Optional) instead of refusing them")
	f.StringVar(&o.assumeEnvFlag, "assume-env-flag", "on", "whether Crossplane ran with --enable-environment-configs: on, or off to drop spec.environment")
	f.StringVar(&o.xrStyle, "xr-style", "", "v2: also report what changes for XRs later moved to namespaced or cluster scope (output unchanged)")
	f.StringSliceVar(&o.noCompensate, "no-compensate", nil, "turn compensations off: K1 (int64 convert before %d formats where the XRD types the value integer), K2 (function-environment-configs v0.6.0 for v1)")
	f.StringSliceVar(&o.fixQuirks, "fix-quirk", nil, "fix a native quirk on purpose, by code (changes behaviour; the Composition is annotated "+convert.IntendedChangesAnnotation+"): C325 (integer format verbs print the integer where native printed %!d(float64=N))")
	f.StringArrayVar(&o.xrds, "xrd", nil, "a file of CompositeResourceDefinitions whose schemas type the XR fields (XRDs in FILE are read too); repeatable")
	f.StringVar(&o.diagnosticsFormat, "diagnostics-format", "text", "findings on stderr as text (one per line) or json")
	return cmd
}

// validate checks the flags against each other.
func (o *convertOptions) validate() error {
	oneOf := func(flag, v string, allowed ...string) error {
		if !slices.Contains(allowed, v) {
			return errors.Errorf("--%s must be one of %s, not %q", flag, strings.Join(allowed, ", "), v)
		}
		return nil
	}
	for _, err := range []error{
		oneOf("format", o.format, "", "yaml", "json"),
		oneOf("target", o.target, string(convert.TargetV1), string(convert.TargetV2)),
		oneOf("name-strategy", o.nameStrategy, string(convert.NameByIndex), string(convert.NameByKind)),
		oneOf("diagnostics-format", o.diagnosticsFormat, "text", "json"),
		oneOf("assume-env-flag", o.assumeEnvFlag, "on", "off"),
		oneOf("xr-style", o.xrStyle, "", "v1", "v2"),
	} {
		if err != nil {
			return err
		}
	}
	for _, q := range o.fixQuirks {
		if err := oneOf("fix-quirk", q, convert.Quirks...); err != nil {
			return err
		}
	}
	stdin := o.file == "" || o.file == "-"
	switch {
	case formatNamed(o.output):
		return errors.Errorf("-o %s would write a file named %q: -o/--output names the output file; for the output format use --output-format %s", o.output, o.output, o.output)
	case o.inPlace && o.output != "":
		return errors.New("--in-place and --output cannot be used together")
	case o.inPlace && stdin:
		return errors.New("--in-place needs a FILE, not stdin")
	case o.backupSuffix != "" && !o.inPlace:
		return errors.New("--backup-suffix needs --in-place")
	case (o.check || o.diff) && (o.inPlace || o.output != ""):
		return errors.New("--check and --diff write nothing: drop --in-place and --output")
	case o.phase1 && o.phase1Out != "":
		return errors.New("--phase1 already writes phase one: drop --phase1-out")
	}
	return nil
}

// library returns the conversion options the flags describe.
func (o *convertOptions) library(source string, configuration []byte, xrds []map[string]any) convert.Options {
	return convert.Options{
		Source:             source,
		Target:             convert.Target(o.target),
		Phase1:             o.phase1,
		NameStrategy:       convert.NameStrategy(o.nameStrategy),
		PTFunction:         o.ptFunction,
		ECFunction:         o.ecFunction,
		PTStep:             o.ptStep,
		ECStep:             o.ecStep,
		Configuration:      configuration,
		Strict:             o.strict,
		AckUnnamed:         o.ackUnnamed,
		KeepServerFields:   o.keepServerFields,
		MoveEnvPatches:     o.moveEnvPatches,
		FixEnumCase:        o.fixEnumCase,
		EnvironmentFlagOff: o.assumeEnvFlag == "off",
		XRStyleV2:          o.xrStyle == "v2",
		NoCompensate:       o.noCompensate,
		FixQuirks:          o.fixQuirks,
		XRDs:               xrds,
		EmitFunctions:      o.emitFunctions,
	}
}

// convertRun reads the input, converts it, reports the findings and writes
// the result where the flags say.
func convertRun(s streams, o *convertOptions) error {
	source, in, err := readConvertInput(s, o.file)
	if err != nil {
		return err
	}
	configuration, err := readConfiguration(o)
	if err != nil {
		return err
	}
	xrds, err := readXRDs(o.xrds)
	if err != nil {
		return err
	}
	res, err := convert.Convert(in, o.library(source, configuration, xrds))
	switch {
	case convert.IsInvalidOption(err):
		return usageError{err: err}
	case convert.IsInvalidInput(err):
		var ie *convert.InputError
		_ = errors.As(err, &ie)
		if perr := printDiagnostics(s.ErrOut, o, source, nil, []convert.Diagnostic{ie.Diagnostic}); perr != nil {
			return perr
		}
		return exitCodeError{code: exitInvalid, err: errors.Errorf("cannot convert %s: the input cannot be read as YAML (%s)", source, ie.Diagnostic.Message)}
	case err != nil:
		return err
	}
	if err := printDiagnostics(s.ErrOut, o, source, res.Documents, res.Diagnostics); err != nil {
		return err
	}
	if res.Failed() {
		errs, _, _ := res.Errors()
		return exitCodeError{code: exitError, err: errors.Errorf("cannot convert %s: %d error(s), nothing written", source, errs)}
	}
	if o.phase1Out != "" {
		if err := writePhase1(s, o, source, in, configuration, xrds); err != nil {
			return err
		}
	}
	out := res.Output
	if format := outputFormat(o.format, in); format == "json" && (o.format == "json" || res.Changed) {
		if out, err = streamJSON(out); err != nil {
			return err
		}
	}
	changed := !bytes.Equal(out, in)
	switch {
	case o.check || o.diff:
		if o.diff {
			if _, err := io.WriteString(s.Out, udiff.Unified(source, source+" (converted)", in, out)); err != nil {
				return err
			}
		}
		if o.check && changed {
			return exitCodeError{code: exitDifferences, err: errors.Errorf("%s would change", source)}
		}
		return nil
	case o.inPlace:
		if !changed {
			return nil
		}
		if o.backupSuffix != "" {
			if err := writeFileAtomic(s.ErrOut, o.file+o.backupSuffix, in, o.file, o.force); err != nil {
				return err
			}
		}
		return writeFileAtomic(s.ErrOut, o.file, out, o.file, o.force)
	case o.output != "":
		return writeFileAtomic(s.ErrOut, o.output, out, o.file, o.force)
	}
	_, err = s.Out.Write(out)
	return err
}

// outputFormat returns the output format: the flag's, else json for a
// JSON input, else yaml.
func outputFormat(flag string, in []byte) string {
	if flag != "" {
		return flag
	}
	if t := bytes.TrimSpace(in); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		return "json"
	}
	return "yaml"
}

// readConvertInput reads FILE, or stdin for "" and "-". A terminal on stdin
// is refused rather than waited on.
func readConvertInput(s streams, file string) (string, []byte, error) {
	if file != "" && file != "-" {
		// A FIFO, socket or device is refused rather than waited on.
		b, err := regularfile.ReadFile(file)
		if err != nil {
			return "", nil, usageError{err: errors.Wrapf(err, "cannot read %q", file)}
		}
		return file, b, nil
	}
	if f, ok := s.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "", nil, usageError{err: errors.New("no input: give a FILE, or pipe YAML to stdin (convert -)")}
	}
	b, err := io.ReadAll(s.In)
	if err != nil {
		return "", nil, errors.Wrap(err, "cannot read stdin")
	}
	return "<stdin>", b, nil
}

// readConfiguration reads --configuration, or crossplane.yaml beside FILE.
func readConfiguration(o *convertOptions) ([]byte, error) {
	path := o.configuration
	if path == "" {
		if o.file == "" || o.file == "-" {
			return nil, nil
		}
		path = filepath.Join(filepath.Dir(o.file), "crossplane.yaml")
		if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
			return nil, nil //nolint:nilerr // No crossplane.yaml beside FILE (or not a file): nothing to read.
		}
	}
	b, err := regularfile.ReadFile(path)
	if err != nil {
		return nil, usageError{err: errors.Wrapf(err, "cannot read %q", path)}
	}
	return b, nil
}

// readXRDs reads the CompositeResourceDefinitions of the --xrd files.
func readXRDs(paths []string) ([]map[string]any, error) {
	var out []map[string]any
	for _, p := range paths {
		b, err := os.ReadFile(p) //nolint:gosec // The file the user named.
		if err != nil {
			return nil, usageError{err: errors.Wrapf(err, "cannot read --xrd %q", p)}
		}
		n := 0
		for _, d := range manifest.Split(b) {
			obj, err := d.Decode()
			if err != nil {
				return nil, usageError{err: errors.Wrapf(err, "cannot read --xrd %q", p)}
			}
			if obj["kind"] == "CompositeResourceDefinition" {
				out = append(out, obj)
				n++
			}
		}
		if n == 0 {
			return nil, usageError{err: errors.Errorf("--xrd %q holds no CompositeResourceDefinition", p)}
		}
	}
	return out, nil
}

// writePhase1 writes phase one of the rollout to --phase1-out when the
// conversion named unnamed templates.
func writePhase1(s streams, o *convertOptions, source string, in, configuration []byte, xrds []map[string]any) error {
	lo := o.library(source, configuration, xrds)
	lo.Phase1, lo.EmitFunctions = true, false
	res, err := convert.Convert(in, lo)
	if err != nil {
		return err
	}
	if res.Failed() || !res.Changed {
		return nil
	}
	if err := writeFileAtomic(s.ErrOut, o.phase1Out, res.Output, o.file, o.force); err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.ErrOut, "%s: wrote phase one of the rollout to %s: apply it, wait until every XR has reconciled, then apply the Pipeline Composition\n", source, o.phase1Out)
	return err
}

// printDiagnostics writes the findings to w, as text or as JSON.
func printDiagnostics(w io.Writer, o *convertOptions, source string, docs []convert.DocumentReport, ds []convert.Diagnostic) error {
	if o.diagnosticsFormat == "json" {
		if docs == nil {
			docs = []convert.DocumentReport{}
		}
		if ds == nil {
			ds = []convert.Diagnostic{}
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			File        string                   `json:"file"`
			Documents   []convert.DocumentReport `json:"documents"`
			Diagnostics []convert.Diagnostic     `json:"diagnostics"`
		}{source, docs, ds})
	}
	for _, d := range ds {
		if _, err := fmt.Fprintln(w, d.String()); err != nil {
			return err
		}
	}
	return nil
}

// streamJSON renders a YAML stream as JSON: one object as itself, several
// as a v1 List. Empty documents are dropped.
func streamJSON(b []byte) ([]byte, error) {
	var items []any
	for _, c := range manifest.Split(b) {
		j, err := manifest.JSON(c.Text)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot write the document at line %d as JSON", c.TextLine)
		}
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, errors.Wrapf(err, "cannot write the document at line %d as JSON", c.TextLine)
		}
		if v != nil {
			items = append(items, v)
		}
	}
	var v any = map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
	if len(items) == 1 {
		v = items[0]
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, errors.Wrap(err, "cannot write JSON")
	}
	return out.Bytes(), nil
}

// writeFileAtomic writes data to dst through a temporary file in the same
// directory and a rename, so dst is never half-written. An existing dst is
// written through its symlinks and keeps its metadata (mode bits, owner,
// group, extended attributes; what cannot be kept is reported on errOut);
// a read-only or hard-linked one is refused unless force. A new dst gets
// the mode of modeOf (the input file), else 0644. Temporary files a killed
// run left beside dst are removed first, and reported.
func writeFileAtomic(errOut io.Writer, dst string, data []byte, modeOf string, force bool) error {
	real := dst
	if fi, err := os.Lstat(dst); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if real, err = filepath.EvalSymlinks(dst); err != nil {
			return errors.Wrapf(err, "cannot write %q: cannot follow the symlink", dst)
		}
	}
	removed, err := atomicfile.RemoveStale(real)
	for _, p := range removed {
		fmt.Fprintf(errOut, "xpmigrate: removed %s, a temporary file left by an interrupted run\n", p)
	}
	if err != nil {
		fmt.Fprintf(errOut, "xpmigrate: %v\n", err)
	}
	fi, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		perm := fs.FileMode(0o644)
		if mfi, err := os.Stat(modeOf); err == nil && modeOf != "" && modeOf != "-" {
			perm = mfi.Mode().Perm()
		}
		return atomicfile.Write(real, data, perm, nil)
	case err != nil:
		return errors.Wrapf(err, "cannot write %q", dst)
	case !fi.Mode().IsRegular():
		return errors.Errorf("cannot write %q: not a regular file", dst)
	case fi.Mode().Perm()&0o200 == 0 && !force:
		return errors.Errorf("cannot write %q: the file is read-only; make it writable, or write it anyway with --force", dst)
	}
	lost, err := atomicfile.Replace(real, data, atomicfile.ReplaceOptions{Sync: true, AllowHardLinks: force})
	var hl *atomicfile.HardLinkError
	if errors.As(err, &hl) {
		return errors.Errorf("cannot write %q: it has %d names (hard links) and replacing it would leave the others with the old content; write it anyway with --force", dst, hl.Links)
	}
	if err != nil {
		return err
	}
	if len(lost) > 0 {
		fmt.Fprintf(errOut, "xpmigrate: %s: written, but not kept: %s\n", dst, strings.Join(lost, "; "))
	}
	return nil
}

// formatNamed reports whether an output file name is an output format's
// name ("json", "yaml"…), which `-o` means in kubectl and crossplane render
// but here would name a file.
func formatNamed(name string) bool {
	switch strings.ToLower(name) {
	case "json", "yaml", "yml", "text", "wide", "name":
		return true
	}
	return false
}
