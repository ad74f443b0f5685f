package textfmt

// UserError is an error a user can act on: Msg is one sentence saying what
// failed and what to do, printed as it is by the command line and the UI.
// Err keeps the cause for errors.Is/As. dynamo.UserError is the same type.
type UserError struct {
	Msg string
	Err error
}

func (e *UserError) Error() string { return e.Msg }
func (e *UserError) Unwrap() error { return e.Err }
