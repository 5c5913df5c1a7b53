import { Link } from 'react-router';

/** The link back to sign-in under the recovery, verification and registration screens. */
export function BackToLogin() {
  return (
    <p className="utrecht-paragraph">
      <Link className="utrecht-link" to="/login">
        Ga naar de login pagina
      </Link>
    </p>
  );
}
