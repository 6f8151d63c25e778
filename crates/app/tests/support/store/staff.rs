//! Staff accounts in memory. Each call holds the store's one lock throughout, as the database's
//! transaction holds the owners' rows: a change is decided and made in one step.

use chrono::{DateTime, Utc};
use rifa_domain::admin::{AdminId, AdminUser, StaffChange, StaffMember};
use rifa_domain::audit::AuditEntry;
use rifa_ports::{
    AdminRepository, CreateAdminError, NewAdmin, NewSession, RecordAudit, SessionsToEnd,
    StaffChangeError, StaffCheck,
};

use super::{MemoryStore, State};

impl State {
    fn member(&self, id: AdminId) -> Option<StaffMember> {
        let admin = self.admins.iter().find(|a| a.id == id)?;
        let last_sign_in_at = self
            .audit
            .sessions
            .iter()
            .filter(|(s, _)| s.admin_id == id)
            .map(|(s, _)| s.created_at)
            .max();
        Some(StaffMember {
            id,
            username: admin.username.clone(),
            role: admin.role,
            disabled: admin.disabled,
            must_change_password: admin.must_change_password,
            // The fake keeps no creation time: no use case reads it.
            created_at: DateTime::UNIX_EPOCH,
            last_sign_in_at,
        })
    }
}

impl AdminRepository for MemoryStore {
    async fn admin_by_username(&self, username: &str) -> anyhow::Result<Option<AdminUser>> {
        Ok(self
            .state()
            .admins
            .iter()
            .find(|a| a.username.eq_ignore_ascii_case(username))
            .cloned())
    }

    async fn create_admin(
        &self,
        new: &NewAdmin<'_>,
        by: Option<AdminId>,
        record: RecordAudit<'_, StaffMember>,
    ) -> Result<StaffMember, CreateAdminError> {
        let mut state = self.state();
        if let Some(by) = by
            && !state
                .member(by)
                .is_some_and(|a| a.role == rifa_domain::admin::Role::Owner && !a.disabled)
        {
            return Err(rifa_domain::admin::StaffRefusal::NotAnOwner.into());
        }
        if state
            .admins
            .iter()
            .any(|a| a.username.eq_ignore_ascii_case(new.username))
        {
            return Err(CreateAdminError::UsernameTaken);
        }
        let id = AdminId::new(state.next_id());
        state.admins.push(AdminUser {
            id,
            username: new.username.to_owned(),
            password_hash: new.password_hash.to_owned(),
            role: new.role,
            disabled: false,
            must_change_password: new.must_change_password,
        });
        let created = state.member(id).expect("just created");
        state.append_audit(&record(None, Some(&created)));
        Ok(created)
    }

    async fn count_admins(&self) -> anyhow::Result<u64> {
        Ok(self.state().admins.len() as u64)
    }

    async fn list_staff(&self) -> anyhow::Result<Vec<StaffMember>> {
        let state = self.state();
        Ok(state
            .admins
            .iter()
            .filter_map(|a| state.member(a.id))
            .collect())
    }

    async fn change_staff(
        &self,
        by: AdminId,
        target: AdminId,
        change: &StaffChange,
        at: DateTime<Utc>,
        check: StaffCheck<'_>,
        record: RecordAudit<'_, StaffMember>,
    ) -> Result<StaffMember, StaffChangeError> {
        let mut state = self.state();
        let acting = state.member(by).ok_or(StaffChangeError::NotFound)?;
        let before = state.member(target).ok_or(StaffChangeError::NotFound)?;
        check(&acting, &before)?;
        let admin = state
            .admins
            .iter_mut()
            .find(|a| a.id == target)
            .expect("read above");
        if let Some(role) = change.role {
            admin.role = role;
        }
        if let Some(disabled) = change.disabled {
            admin.disabled = disabled;
        }
        if let Some(hash) = &change.reset_password_hash {
            admin.password_hash.clone_from(hash);
            admin.must_change_password = true;
        }
        if change.ends_sessions() {
            for (session, revoked) in &mut state.audit.sessions {
                if session.admin_id == target && revoked.is_none() {
                    *revoked = Some(at);
                }
            }
        }
        let after = state.member(target).expect("read above");
        state.append_audit(&record(Some(&before), Some(&after)));
        Ok(after)
    }

    async fn replace_own_password(
        &self,
        admin: AdminId,
        password_hash: &str,
        session: &NewSession,
        entry: &AuditEntry,
    ) -> anyhow::Result<()> {
        let mut state = self.state();
        let account = state
            .admins
            .iter_mut()
            .find(|a| a.id == admin)
            .ok_or_else(|| anyhow::anyhow!("no admin {admin}"))?;
        account.password_hash = password_hash.to_owned();
        account.must_change_password = false;
        for (open, revoked) in &mut state.audit.sessions {
            if open.admin_id == admin && revoked.is_none() {
                *revoked = Some(session.created_at);
            }
        }
        state.audit.sessions.push((session.clone(), None));
        state.append_audit(entry);
        Ok(())
    }

    async fn open_session(&self, session: &NewSession, audit: &AuditEntry) -> anyhow::Result<()> {
        self.open_session_now(session, audit);
        Ok(())
    }

    async fn admin_of_live_session(
        &self,
        id: &str,
        at: DateTime<Utc>,
    ) -> anyhow::Result<Option<AdminUser>> {
        Ok(self.admin_of_live_session_now(id, at))
    }

    async fn revoke_sessions(
        &self,
        sessions: SessionsToEnd<'_>,
        at: DateTime<Utc>,
        audit: &AuditEntry,
    ) -> anyhow::Result<u64> {
        Ok(self.revoke_sessions_now(sessions, at, audit))
    }
}
