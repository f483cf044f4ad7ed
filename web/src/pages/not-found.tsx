import { Link } from 'react-router';
import { useTitle } from '../components/title';

export function NotFoundPage() {
  useTitle('Not found');
  return (
    <>
      <h1>No such page</h1>
      <p>
        The dashboard has no page at this address. Go to the <Link to="/">overview</Link>.
      </p>
    </>
  );
}
