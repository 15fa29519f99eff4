package migrate

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/udiff"
)

// FileOptions are what `xpmigrate convert` does with one file: where the
// input comes from, how it is converted, and where the result goes.
type FileOptions struct {
	// File is the input file; "" or "-" reads Stdin.
	File  string
	Stdin io.Reader

	// Convert are the converter's options. Source, Configuration and XRDs
	// are filled in from File, Configuration and XRDs.
	Convert convert.Options

	// Configuration is a Configuration's crossplane.yaml naming the
	// functions; "" reads crossplane.yaml beside File, if there is one.
	Configuration string
	// XRDs are files of CompositeResourceDefinitions typing the XR fields.
	XRDs []string
	// ProviderCRDs are files or directories of providers'
	// CustomResourceDefinitions (convert.ReadProviderCRDs), for --target v2.
	ProviderCRDs []string

	// Format is the output format, convert.FormatYAML or FormatJSON; ""
	// chooses by the input (convert.OutputFormat).
	Format string
	// DiagnosticsFormat is convert.DiagnosticsText or DiagnosticsJSON.
	DiagnosticsFormat string

	// Check writes nothing and returns a findings error when File would
	// change; Diff writes a unified diff of the change to the output.
	Check, Diff bool
	// InPlace writes the result back into File, keeping the original as
	// File+BackupSuffix when that is not "".
	InPlace      bool
	BackupSuffix string
	// Output is the file to write the result to; "" (and not InPlace)
	// writes it to the output stream.
	Output string
	// Phase1Out also writes phase one of the rollout there when the
	// conversion named unnamed templates.
	Phase1Out string
	// Force writes read-only and hard-linked files.
	Force bool
}

// ConvertFile converts one file as o says, writing the result to out (or
// to a file) and the findings to errOut. Unusable input or options are an
// errkind invalid input error; a file that --check finds would change is
// an errkind findings error; a Composition that cannot be converted is
// any other error, and nothing is written.
func ConvertFile(o FileOptions, out, errOut io.Writer) error {
	source, in, err := readConvertInput(o.File, o.Stdin)
	if err != nil {
		return err
	}
	configuration, err := readConfiguration(o.Configuration, o.File)
	if err != nil {
		return err
	}
	xrds, err := readXRDs(o.XRDs)
	if err != nil {
		return err
	}
	crds, err := convert.ReadProviderCRDs(o.ProviderCRDs)
	if err != nil {
		return err
	}
	co := ConvertOptions(o.Convert, ConvertInputs{Source: source, Configuration: configuration, XRDs: xrds, ProviderCRDs: crds})
	res, err := v2native.Convert(in, co)
	switch {
	case convert.IsInvalidOption(err):
		return errkind.InvalidInput(err)
	case convert.IsInvalidInput(err):
		var ie *convert.InputError
		_ = errors.As(err, &ie)
		if perr := convert.WriteDiagnostics(errOut, o.DiagnosticsFormat, source, nil, []convert.Diagnostic{ie.Diagnostic}); perr != nil {
			return perr
		}
		return errkind.InvalidInputf("cannot convert %s: the input cannot be read as YAML (%s)", source, ie.Diagnostic.Message)
	case err != nil:
		return err
	}
	if err := convert.WriteDiagnostics(errOut, o.DiagnosticsFormat, source, res.Documents, res.Diagnostics); err != nil {
		return err
	}
	if res.Failed() {
		errs, _, _ := res.Errors()
		return errors.Errorf("cannot convert %s: %d error(s), nothing written", source, errs)
	}
	wo := atomicfile.WriteFileOptions{ModeOf: o.File, Force: o.Force, Log: errOut}
	if o.Phase1Out != "" {
		if err := writePhase1(o.Phase1Out, source, in, co, wo, errOut); err != nil {
			return err
		}
	}
	result := res.Output
	if format := convert.OutputFormat(o.Format, in); format == convert.FormatJSON && (o.Format == convert.FormatJSON || res.Changed) {
		if result, err = convert.StreamJSON(result); err != nil {
			return err
		}
	}
	changed := !bytes.Equal(result, in)
	switch {
	case o.Check || o.Diff:
		if o.Diff {
			if _, err := io.WriteString(out, udiff.Unified(source, source+" (converted)", in, result)); err != nil {
				return err
			}
		}
		if o.Check && changed {
			return errkind.Findingsf("%s would change", source)
		}
		return nil
	case o.InPlace:
		if !changed {
			return nil
		}
		if o.BackupSuffix != "" {
			if err := atomicfile.WriteFile(o.File+o.BackupSuffix, in, wo); err != nil {
				return err
			}
		}
		return atomicfile.WriteFile(o.File, result, wo)
	case o.Output != "":
		return atomicfile.WriteFile(o.Output, result, wo)
	}
	_, err = out.Write(result)
	return err
}

// readConvertInput reads file, or stdin for "" and "-".
func readConvertInput(file string, stdin io.Reader) (string, []byte, error) {
	if file != "" && file != "-" {
		// A FIFO, socket or device is refused rather than waited on.
		b, err := manifest.ReadFile(file)
		if err != nil {
			return "", nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read %q", file))
		}
		return file, b, nil
	}
	b, err := manifest.ReadAll(stdin, "<stdin>")
	if regularfile.IsTooLarge(err) {
		return "", nil, errkind.InvalidInput(err)
	}
	if err != nil {
		return "", nil, errors.Wrap(err, "cannot read stdin")
	}
	return "<stdin>", b, nil
}

// readConfiguration reads path, or crossplane.yaml beside file.
func readConfiguration(path, file string) ([]byte, error) {
	if path == "" {
		if file == "" || file == "-" {
			return nil, nil
		}
		path = filepath.Join(filepath.Dir(file), "crossplane.yaml")
		if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
			return nil, nil //nolint:nilerr // No crossplane.yaml beside FILE (or not a file): nothing to read.
		}
	}
	b, err := manifest.ReadFile(path)
	if err != nil {
		return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read %q", path))
	}
	return b, nil
}

// readXRDs reads the CompositeResourceDefinitions of the --xrd files.
func readXRDs(paths []string) ([]map[string]any, error) {
	var out []map[string]any
	for _, p := range paths {
		b, err := manifest.ReadFile(p)
		if err != nil {
			return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read --xrd %q", p))
		}
		n := 0
		for _, d := range manifest.Split(b) {
			obj, err := d.Decode()
			if err != nil {
				return nil, errkind.InvalidInput(errors.Wrapf(err, "cannot read --xrd %q", p))
			}
			if obj["kind"] == "CompositeResourceDefinition" {
				out = append(out, obj)
				n++
			}
		}
		if n == 0 {
			return nil, errkind.InvalidInputf("--xrd %q holds no CompositeResourceDefinition", p)
		}
	}
	return out, nil
}

// writePhase1 converts in a second time, for phase one of the rollout,
// and writes it to path when the conversion named unnamed templates.
func writePhase1(path, source string, in []byte, co convert.Options, wo atomicfile.WriteFileOptions, errOut io.Writer) error {
	co.Phase1, co.EmitFunctions = true, false
	res, err := v2native.Convert(in, co)
	if err != nil {
		return err
	}
	if res.Failed() || !res.Changed {
		return nil
	}
	if err := atomicfile.WriteFile(path, res.Output, wo); err != nil {
		return err
	}
	_, err = fmt.Fprintf(errOut, "%s: wrote phase one of the rollout to %s: apply it, wait until every XR has reconciled, then apply the Pipeline Composition\n", source, path)
	return err
}
