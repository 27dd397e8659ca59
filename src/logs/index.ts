// Logs: link detection with log rules, one line at a time, and the record filter.
export { findLogLinks, linkifyLogLine, LogLineLinker, type LogOptions } from './lines.js';
export { logView, isLogSyntax, type LineView } from './view.js';
export {
  createRecordStream,
  createLogLinkStream,
  linkRecords,
  RecordLinker,
  type RecordOptions,
  type RecordLinkerOptions,
  type RecordLink,
  type LinkRecord,
} from './records.js';
