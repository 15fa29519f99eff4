package manifest

// InvalidInput reports that the error is invalid input: the command line
// exits 2 for it (internal/errkind).
func (e *InputError) InvalidInput() bool { return true }
