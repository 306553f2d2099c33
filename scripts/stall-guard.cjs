// The Payload CLI, the seed and the import CLI always end with an explicit exit: a drained event
// loop means the import of the config stalled (scripts/configLoading.ts). Report that as exit 75 so
// the launcher can retry, rather than as a silent success.
process.on('beforeExit', () => process.exit(75))
