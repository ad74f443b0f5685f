package cli

import (
	"context"

	"dynascope/config"
	"dynascope/ui"
)

// switchConnection is the UI's Options.Switch (ctrl+k): it builds the
// client of the choice as runUI builds the first one, from the command
// line's connection with the choice in place of what named the old one
// (config.Connection.Switched): the settings' connection or the profile,
// its writer where writes are allowed there (--allow-writes, or writes:
// true on the connection) and its streams. The UI reads no file: the
// choices and this func are all it is given.
func switchConnection(base *config.Connection, allowWrites bool) func(context.Context, config.Choice) (ui.Switched, error) {
	return func(ctx context.Context, to config.Choice) (ui.Switched, error) {
		conn := base.Switched(to)
		client, settings, err := connectWithSettings(ctx, &conn)
		if err != nil {
			return ui.Switched{}, err
		}
		sw := ui.Switched{
			Store: client, Streams: liveStreams(ctx, streamsOf(&conn), client),
			Region: client.Region(), Endpoint: client.Endpoint(), Profile: client.Profile(),
			Connection: connectionName(conn, settings),
		}
		if allowWrites || conn.WritesAllowed(settings) {
			w, err := openWriter(ctx, &conn)
			if err != nil {
				return ui.Switched{}, err
			}
			sw.Editor = w
		}
		return sw, nil
	}
}

// connectionName is the settings' connection in effect for conn
// (--connection, else the settings file's connection:), "" for none.
func connectionName(conn config.Connection, s config.Settings) string {
	name := conn.Name
	if name == "" {
		name = s.Connection
	}
	if name == config.NoConnection {
		return ""
	}
	return name
}
