// The Payload CLI always ends with an explicit exit; on Node 20 its loader sometimes stalls while
// importing the config and the event loop drains instead (field notes). Report that as exit 75 so
// the launcher can retry, rather than as a silent success.
process.on('beforeExit', () => process.exit(75))
