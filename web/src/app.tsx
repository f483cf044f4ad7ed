import { useEffect, useRef } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/layout';
import { EvaluatePage } from './pages/evaluate/evaluate-page';
import { ExperimentDetailPage } from './pages/experiments/detail';
import { ExperimentsPage } from './pages/experiments/list';
import { NewExperimentPage } from './pages/experiments/new/new-experiment';
import { FeedbackPage } from './pages/feedback';
import { ModelDetailPage } from './pages/models/detail';
import { ModelsPage } from './pages/models/list';
import { NotFoundPage } from './pages/not-found';
import { OverviewPage } from './pages/overview';
import { ProductionPage } from './pages/production/production-page';
import { QueryDetailPage } from './pages/queries/detail';
import { QueriesPage } from './pages/queries/list';
import { SideBySidePage } from './pages/queries/side-by-side';
import { SettingsPage } from './pages/settings';

/**
 * After an in-app navigation, moves focus to the new page's content, so keyboard and screen-reader
 * users land on it; the first page load keeps the browser's own order (Tab reaches the skip link).
 */
function FocusOnNavigate() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}

export function App() {
  return (
    <>
      <FocusOnNavigate />
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<OverviewPage />} />
          <Route path="experiments" element={<ExperimentsPage />} />
          <Route path="experiments/new" element={<NewExperimentPage />} />
          <Route path="experiments/:experimentId" element={<ExperimentDetailPage />} />
          <Route path="models" element={<ModelsPage />} />
          <Route path="models/:modelId" element={<ModelDetailPage />} />
          <Route path="production" element={<ProductionPage />} />
          <Route path="evaluate" element={<EvaluatePage />} />
          <Route path="feedback" element={<FeedbackPage />} />
          <Route path="queries" element={<QueriesPage />} />
          <Route path="queries/:queryHash" element={<QueryDetailPage />} />
          <Route path="queries/:queryHash/side-by-side" element={<SideBySidePage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </>
  );
}
