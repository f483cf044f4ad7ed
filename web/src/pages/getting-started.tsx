import { Command } from '../components/states';

const origin = () => window.location.origin;

/** What a new user sends to see something here: real requests against this server. */
export function FeedbackCurl() {
  return (
    <Command label="Send feedback with curl">{`curl -s -X POST ${origin()}/api/cortex/feedback \\
  -H 'content-type: application/json' -d '{
  "sessionId": "session-1",
  "feedback": [
    {"queryId": "q-1", "metadata": {"userAction": "impression", "resultId": "doc-1", "queryHash": "running shoes", "customMetadata": {"position": 1}}},
    {"queryId": "q-1", "metadata": {"userAction": "click", "resultId": "doc-1", "queryHash": "running shoes", "customMetadata": {"position": 1}}}]}'`}</Command>
  );
}

export function ExperimentCurl() {
  return (
    <Command label="Create an experiment with curl">{`curl -s -X POST ${origin()}/api/nous/ab-testing/experiments \\
  -H 'content-type: application/json' -d '{
  "name": "grid-vs-list",
  "configuration": {"variants": [{"id": "control"}, {"id": "grid"}], "targetMetrics": ["ctr", "mrr"]}}'`}</Command>
  );
}

export function ModelCurl() {
  return (
    <Command label="Register a model with curl">{`curl -s -X POST ${origin()}/api/nous/learn/models \\
  -H 'content-type: application/json' \\
  -d '{"modelId": "pbm", "name": "position-based click model", "type": "click_model", "config": {"algorithm": "pbm"}}'`}</Command>
  );
}

/** With a key configured, the examples need it too. */
export function KeyNote() {
  return (
    <p className="muted small">
      On a server with API keys add <code>-H 'authorization: Bearer &lt;key&gt;'</code> (an <code>ingest</code> key for feedback,{' '}
      <code>admin</code> for experiments and models).
    </p>
  );
}
