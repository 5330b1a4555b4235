#include "commands/cloud_offer_commands.h"

#include "common/format.h"
#include "session.h"
#include "ui_text.h"

#include <utility>

namespace advisor::ui {

AddCloudOfferCommand* AddCloudOfferCommand::create(Session& session, const CloudOfferInput& in) {
    const auto id = session.db().addCloudOffer(in);
    return new AddCloudOfferCommand(session, *session.db().cloudOffer(id));
}

AddCloudOfferCommand::AddCloudOfferCommand(Session& session, CloudOffer stored)
    : QUndoCommand(QObject::tr("Add cloud offer %1 %2").arg(qs(stored.provider), qs(stored.gpuName))),
      session_(session), offer_(std::move(stored)) {}

void AddCloudOfferCommand::undo() {
    session_.db().removeCloudOffers({offer_.id});
    session_.notifyCloudOffersChanged();
}

void AddCloudOfferCommand::redo() {
    if (!std::exchange(first_, false)) {
        session_.db().restoreCloudOffers({offer_});
    }
    session_.notifyCloudOffersChanged();
}

EditCloudOfferCommand* EditCloudOfferCommand::create(Session& session, std::int64_t id, const CloudOfferInput& in) {
    CloudOffer before = session.db().updateCloudOffer(id, in);
    return new EditCloudOfferCommand(session, std::move(before), *session.db().cloudOffer(id));
}

EditCloudOfferCommand::EditCloudOfferCommand(Session& session, CloudOffer before, CloudOffer after)
    : QUndoCommand(QObject::tr("Edit cloud offer %1 %2").arg(qs(after.provider), qs(after.gpuName))), session_(session),
      before_(std::move(before)), after_(std::move(after)) {}

void EditCloudOfferCommand::undo() {
    session_.db().replaceCloudOffer(before_);
    session_.notifyCloudOffersChanged();
}

void EditCloudOfferCommand::redo() {
    if (!std::exchange(first_, false)) {
        session_.db().replaceCloudOffer(after_);
    }
    session_.notifyCloudOffersChanged();
}

RemoveCloudOffersCommand::RemoveCloudOffersCommand(Session& session, std::vector<std::int64_t> ids)
    : QUndoCommand(ids.size() == 1
                       ? QObject::tr("Delete cloud offer")
                       : QObject::tr("Delete %1").arg(qs(format::count(static_cast<long long>(ids.size()), "cloud offer")))),
      session_(session), ids_(std::move(ids)) {}

void RemoveCloudOffersCommand::undo() {
    session_.db().restoreCloudOffers(removed_);
    session_.notifyCloudOffersChanged();
}

void RemoveCloudOffersCommand::redo() {
    removed_ = session_.db().removeCloudOffers(ids_);
    session_.notifyCloudOffersChanged();
}

ImportCloudOffersCommand::ImportCloudOffersCommand(Session& session, std::vector<std::int64_t> addedIds,
                                                   const QString& file)
    : QUndoCommand(QObject::tr("Import %1 from %2")
                       .arg(qs(format::count(static_cast<long long>(addedIds.size()), "cloud offer")), file)),
      session_(session), ids_(std::move(addedIds)) {}

void ImportCloudOffersCommand::undo() {
    removed_ = session_.db().removeCloudOffers(ids_);
    session_.notifyCloudOffersChanged();
}

void ImportCloudOffersCommand::redo() {
    if (!std::exchange(first_, false)) {
        session_.db().restoreCloudOffers(removed_);
    }
    session_.notifyCloudOffersChanged();
}

} // namespace advisor::ui
